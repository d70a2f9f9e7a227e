// `npm run migrate -w services/automation`: apply migrations and exit (deploy jobs, init containers).
import { createLogger, migrateDatabase } from '@mailer/shared';
import { loadAutomationConfig } from './config';
import { automationDatabaseUrl, MIGRATIONS_DIR } from './database';

const logger = createLogger('automation-migrate');
migrateDatabase({ databaseUrl: automationDatabaseUrl(loadAutomationConfig()), migrationsDir: MIGRATIONS_DIR, logger }).then(
  () => process.exit(0),
  (error: unknown) => {
    logger.fatal({ err: error }, 'migration failed');
    process.exit(1);
  },
);
