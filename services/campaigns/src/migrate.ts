// `npm run migrate -w services/campaigns`: apply migrations and exit (deploy jobs, init containers).
import { createLogger, migrateDatabase } from '@mailer/shared';
import { loadCampaignsConfig } from './config';
import { campaignsDatabaseUrl, MIGRATIONS_DIR } from './database';

const logger = createLogger('campaigns-migrate');
migrateDatabase({ databaseUrl: campaignsDatabaseUrl(loadCampaignsConfig()), migrationsDir: MIGRATIONS_DIR, logger }).then(
  () => process.exit(0),
  (error: unknown) => {
    logger.fatal({ err: error }, 'migration failed');
    process.exit(1);
  },
);
