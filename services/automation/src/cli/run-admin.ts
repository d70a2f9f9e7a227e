import { AppError, Broker, createLogger, createPool, loadConfig, migrateDatabase, type Logger, type Pool } from '@mailer/shared';
import { automationDatabaseEnvSchema, type AutomationDatabaseConfig } from '../config';
import { automationDatabaseUrl, MIGRATIONS_DIR } from '../database';
import { EmailRenderer } from '../domain/rendering/render-email';
import { createTriggerRouting } from '../domain/routing/trigger-routing';
import type { WorkflowWrites } from '../domain/workflows/workflow-writes';
import { parseArgs, runCommand, UsageError } from './admin-commands';

/** How long an import waits for the broker before it gives up, importing nothing. */
const BROKER_WAIT_MS = 10_000;

/** Workflow writes with the CLI's own broker connection, opened on first use and closed by `close`. */
function cliWorkflowWrites(config: AutomationDatabaseConfig, pool: Pool, logger: Logger) {
  let broker: Broker | undefined;
  const writes = async (): Promise<WorkflowWrites> => {
    broker ??= Broker.start({ url: config.AMQP_URL, namespace: config.BROKER_NAMESPACE, logger, connectionName: 'automation-admin' });
    await broker.ready(BROKER_WAIT_MS).catch(() => {
      throw new Error(`the message broker (${new URL(config.AMQP_URL).host}) is unreachable: a workflow's trigger is routed before it is saved, so nothing was imported`);
    });
    return { pool, renderer: new EmailRenderer(), routes: createTriggerRouting({ pool, router: broker, logger }) };
  };
  return {
    writes,
    close: async () => {
      await broker?.close();
    },
  };
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * `workflows import|list|log` and `campaigns recipients`: JSON on stdout; on error a message on
 * stderr (and, for a refusal such as an invalid file, `{ errors }` on stdout listing every problem)
 * and a non-zero exit code.
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
  const workflowWrites = cliWorkflowWrites(config, pool, logger);
  try {
    io.out(`${JSON.stringify(await runCommand({ pool, workflowWrites: workflowWrites.writes }, args), null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n`);
      return 2;
    }
    if (error instanceof AppError && error.messages.length > 0) {
      io.out(`${JSON.stringify({ errors: error.messages }, null, 2)}\n`);
      io.err(`refused${args.command === 'import' ? ', nothing imported' : ''}:\n  ${error.messages.join('\n  ')}\n`);
      return 1;
    }
    throw error;
  } finally {
    await workflowWrites.close();
    await pool.end();
  }
}
