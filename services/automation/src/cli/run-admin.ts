import { AppError, createLogger, createPool, loadConfig, migrateDatabase } from '@mailer/shared';
import { automationDatabaseEnvSchema } from '../config';
import { automationDatabaseUrl, MIGRATIONS_DIR } from '../database';
import { parseArgs, runCommand, UsageError } from './admin-commands';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * `workflows import|list|log`: JSON on stdout; on error a message on stderr (and, for an invalid
 * file, `{ errors }` on stdout listing every problem) and a non-zero exit code.
 */
export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  let args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n`);
    return 2;
  }
  const config = loadConfig(automationDatabaseEnvSchema, env);
  const logger = createLogger('automation-admin', { level: env.LOG_LEVEL ?? 'warn', destination: process.stderr });
  const databaseUrl = automationDatabaseUrl(config);
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger, { max: 2 });
  try {
    io.out(`${JSON.stringify(await runCommand(pool, args), null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n`);
      return 2;
    }
    if (error instanceof AppError && error.messages.length > 0) {
      io.out(`${JSON.stringify({ errors: error.messages }, null, 2)}\n`);
      io.err(`refused, nothing imported:\n  ${error.messages.join('\n  ')}\n`);
      return 1;
    }
    throw error;
  } finally {
    await pool.end();
  }
}
