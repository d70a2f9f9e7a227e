import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { GatewayConfig } from './config';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const gatewayDatabaseUrl = (config: GatewayConfig) =>
  serviceDatabaseUrl({
    service: 'gateway',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
