import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { AutomationDatabaseConfig } from './config';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const automationDatabaseUrl = (config: Pick<AutomationDatabaseConfig, 'DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>) =>
  serviceDatabaseUrl({
    service: 'automation',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
