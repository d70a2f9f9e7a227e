import type { Logger } from 'pino';
import { ConfigError } from '../config/load-config';
import { migrateDatabase } from '../db/migrate';
import { createPool, type Pool } from '../db/pool';
import { AppError } from '../errors/app-error';
import { createLogger } from '../logger/logger';

/** Where an operator command reads its environment and writes its answer. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A command given the wrong arguments: exit 2 with the usage text. */
export class UsageError extends Error {}

/**
 * The exit code of a failed command, with its message on stderr: 2 for bad usage (and the usage
 * text), 1 for a refusal (the domain's messages, one a line), a bad environment or any other failure.
 */
export function reportCliFailure(io: CliIo, error: unknown, usage: string, command: string): number {
  if (error instanceof UsageError) {
    io.stderr(`${error.message}\n${usage}`);
    return 2;
  }
  if (error instanceof AppError) {
    io.stderr(`${[error.message, ...error.messages.slice(1)].join('\n')}\n`);
    return 1;
  }
  if (error instanceof ConfigError) {
    io.stderr(`${error.message}\n`);
    return 1;
  }
  io.stderr(`${command} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

/**
 * Runs one operator command on a service's own database: migrated first (the CLI may run before
 * the service ever started), a small pool, logs on stderr, the pool closed whatever happens.
 */
export async function withServiceDatabase<T>(
  options: { service: string; databaseUrl: string; migrationsDir: string; logLevel: string },
  run: (pool: Pool, logger: Logger) => Promise<T>,
): Promise<T> {
  const logger = createLogger(`${options.service}-cli`, {
    level: options.logLevel,
    destination: process.stderr,
  });
  await migrateDatabase({ databaseUrl: options.databaseUrl, migrationsDir: options.migrationsDir, logger });
  const pool = createPool(options.databaseUrl, logger, { max: 2 });
  try {
    return await run(pool, logger);
  } finally {
    await pool.end();
  }
}

/** The end of a CLI's main module: runs it on this process's arguments and sets the exit code. */
export function runCliMain(runAdmin: (argv: string[], io: CliIo) => Promise<number>): void {
  void runAdmin(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
