import path from 'node:path';
import { serviceDatabaseUrl } from '@mailer/shared';
import type { GatewayConfig } from './config';

type DatabaseSettings = Pick<GatewayConfig, 'DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>;
type ContactsDatabaseSettings = Pick<GatewayConfig, 'CONTACTS_DATABASE_URL' | 'POSTGRES_URL' | 'DB_PREFIX'>;

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

export const gatewayDatabaseUrl = (config: DatabaseSettings) =>
  serviceDatabaseUrl({
    service: 'gateway',
    databaseUrl: config.DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });

/** Contacts' database, which contacts creates and migrates: the gateway only reads it (ContactReads). */
export const contactsDatabaseUrl = (config: ContactsDatabaseSettings) =>
  serviceDatabaseUrl({
    service: 'contacts',
    databaseUrl: config.CONTACTS_DATABASE_URL,
    postgresUrl: config.POSTGRES_URL,
    dbPrefix: config.DB_PREFIX,
  });
