import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { WebhooksConfig } from './config';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const webhooksDatabaseUrl = (config: Pick<WebhooksConfig, 'DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>) =>
  serviceDatabaseUrl({
    service: 'webhooks',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
