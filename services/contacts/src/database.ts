import path from 'node:path';
import type { Logger } from 'pino';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { ContactsConfig } from './config';

/** How code of contacts' hosted by another service connects to contacts' database. */
export interface ContactsDatabaseOptions {
  /** Contacts' own database (the one its migrations write). */
  databaseUrl: string;
  /** Connections this process may hold to it. */
  poolSize: number;
  logger: Logger;
}

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const contactsDatabaseUrl = (config: Pick<ContactsConfig, 'DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>) =>
  serviceDatabaseUrl({
    service: 'contacts',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
