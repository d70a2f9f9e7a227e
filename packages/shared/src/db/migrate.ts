import { runner } from 'node-pg-migrate';
import type { Logger } from 'pino';
import { ensureDatabase } from './ensure-database';

/**
 * node-pg-migrate takes its advisory lock with try-lock and fails when another instance holds it;
 * wait for that instance to finish instead, then check again (it will find nothing left to do).
 */
async function whileAnotherMigrates<T>(migrate: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await migrate();
    } catch (error) {
      const busy = error instanceof Error && /Another migration is already running/.test(error.message);
      if (!busy || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

/**
 * Creates the service's database if missing and applies its migrations (node-pg-migrate, SQL files
 * with `-- Up Migration` / `-- Down Migration`). node-pg-migrate holds an advisory lock, so several
 * instances starting at once apply each migration once.
 */
export async function migrateDatabase(options: {
  databaseUrl: string;
  migrationsDir: string;
  logger: Logger;
}): Promise<string[]> {
  await ensureDatabase(options.databaseUrl);
  const applied = await whileAnotherMigrates(() => runner({
    databaseUrl: options.databaseUrl,
    dir: options.migrationsDir,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    count: Infinity,
    checkOrder: true,
    log: (message: string) => options.logger.debug({ migration: message }, 'migration'),
  }));
  const names = applied.map((migration) => migration.name);
  if (names.length > 0) options.logger.info({ applied: names }, 'migrations applied');
  return names;
}
