import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { WebConfig } from './config';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const webDatabaseUrl = (config: Pick<WebConfig, 'DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>) =>
  serviceDatabaseUrl({
    service: 'web',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
