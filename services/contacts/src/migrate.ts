// `npm run migrate -w services/contacts`: apply migrations and exit (deploy jobs, init containers).
import { createLogger, migrateDatabase } from '@mailer/shared';
import { loadContactsConfig } from './config';
import { contactsDatabaseUrl, MIGRATIONS_DIR } from './database';

const logger = createLogger('contacts-migrate');
migrateDatabase({
  databaseUrl: contactsDatabaseUrl(loadContactsConfig()),
  migrationsDir: MIGRATIONS_DIR,
  logger,
}).then(
  () => process.exit(0),
  (error: unknown) => {
    logger.fatal({ err: error }, 'migration failed');
    process.exit(1);
  },
);
