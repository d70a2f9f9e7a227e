import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { ContactsConfig } from './config';

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const contactsDatabaseUrl = (config: ContactsConfig) =>
  serviceDatabaseUrl({
    service: 'contacts',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
