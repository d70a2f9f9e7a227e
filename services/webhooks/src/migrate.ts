// `npm run migrate -w services/webhooks`: apply migrations and exit (deploy jobs, init containers).
import { createLogger, migrateDatabase } from '@mailer/shared';
import { loadWebhooksConfig } from './config';
import { webhooksDatabaseUrl, MIGRATIONS_DIR } from './database';

const logger = createLogger('webhooks-migrate');
migrateDatabase({ databaseUrl: webhooksDatabaseUrl(loadWebhooksConfig()), migrationsDir: MIGRATIONS_DIR, logger }).then(
  () => process.exit(0),
  (error: unknown) => {
    logger.fatal({ err: error }, 'migration failed');
    process.exit(1);
  },
);
