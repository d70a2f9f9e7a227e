import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { ContactsConfig } from './config';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const contactsDatabaseUrl = (config: Pick<ContactsConfig, 'DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>) =>
  serviceDatabaseUrl({
    service: 'contacts',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
