import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { GatewayConfig } from './config';

type DatabaseSettings = Pick<GatewayConfig, 'DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>;

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const gatewayDatabaseUrl = (config: DatabaseSettings) =>
  serviceDatabaseUrl({
    service: 'gateway',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });

