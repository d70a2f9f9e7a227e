// `npm run admin -- accounts|users|keys <command> [--option value ...]`: the gateway's operator CLI.
// JSON on stdout; a bad argument or a refused command → a message on stderr and a non-zero exit.
import { parseArgs } from 'node:util';
import { createLogger, createPool, createRedis, migrateDatabase, redisReady, type Redis } from '@mailer/shared';
import { loadAdminConfig } from './admin-config';
import { gatewayDatabaseUrl, MIGRATIONS_DIR } from '../database';
import { commands as creationCommands, describeFailure, UsageError } from './admin-commands';
import { operatorCommands } from './operator-commands';

const commands = { ...creationCommands, ...operatorCommands };

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const USAGE = `usage:
  accounts create --name N --plan free|pro
  accounts list
  accounts set-plan --account ID --plan free|pro
  users create --account ID --email E --password P
  users list [--account ID]
  users set-password --email E --password P
  users unlock --email E
  keys create --account ID --name N [--expires YYYY-MM-DD]
  keys list --account ID
  keys revoke --id ID`;

function parse(argv: string[]) {
  const [group, command, ...rest] = argv;
  const name = `${group ?? ''} ${command ?? ''}`;
  const spec = commands[name];
  if (!spec) throw new UsageError(`unknown command "${name.trim()}"\n${USAGE}`);
  const options = Object.fromEntries(spec.options.map((option) => [option, { type: 'string' as const }]));
  try {
    const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
    return { spec, values: values as Record<string, string | undefined> };
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
}

/** Runs one command; resolves to the process exit code. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`${describeFailure(error) ?? String(error)}\n`);
    return 2;
  }
  const config = loadAdminConfig(io.env);
  const logger = createLogger('gateway-admin', { level: 'warn' });
  const databaseUrl = gatewayDatabaseUrl(config);
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  let redis: Redis | undefined;
  const connectRedis = async () => {
    redis ??= createRedis(config.REDIS_URL, createLogger('gateway-admin', { level: 'silent' }), { keyPrefix: config.REDIS_KEY_PREFIX });
    await redisReady(redis, 3000);
    return redis;
  };
  try {
    const result = await parsed.spec.run({ pool, redis: connectRedis, warn: (m) => io.stderr(`${m}\n`) }, parsed.values);
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    const message = describeFailure(error);
    if (message === undefined) throw error;
    io.stderr(`error: ${message}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await pool.end();
    redis?.disconnect();
  }
}

if (require.main === module) {
  runAdmin(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
