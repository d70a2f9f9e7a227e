// `npm run migrate -w services/web`: apply migrations and exit (deploy jobs, init containers).
import { createLogger, migrateDatabase } from '@mailer/shared';
import { loadWebConfig } from './config';
import { webDatabaseUrl, MIGRATIONS_DIR } from './database';

const logger = createLogger('web-migrate');
migrateDatabase({ databaseUrl: webDatabaseUrl(loadWebConfig()), migrationsDir: MIGRATIONS_DIR, logger }).then(
  () => process.exit(0),
  (error: unknown) => {
    logger.fatal({ err: error }, 'migration failed');
    process.exit(1);
  },
);
