import { notMigratedAsNotReady as notMigratedOf } from '@mailer/shared';

/** Contacts' database or a table of it not there yet, for contacts' code hosted by another service: a 503, not a 500. */
export const notMigratedAsNotReady = (error: unknown): unknown => notMigratedOf(error, 'contacts');
