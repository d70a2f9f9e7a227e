// `npm run migrate -w services/gateway`: apply migrations and exit (deploy jobs, init containers).
import { createLogger, migrateDatabase } from '@mailer/shared';
import { loadGatewayConfig } from './config';
import { gatewayDatabaseUrl, MIGRATIONS_DIR } from './database';

const logger = createLogger('gateway-migrate');
migrateDatabase({ databaseUrl: gatewayDatabaseUrl(loadGatewayConfig()), migrationsDir: MIGRATIONS_DIR, logger }).then(
  () => process.exit(0),
  (error: unknown) => {
    logger.fatal({ err: error }, 'migration failed');
    process.exit(1);
  },
);
