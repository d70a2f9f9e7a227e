import { DependencyNotReadyError } from '@mailer/shared';

/** Postgres: the database or a table does not exist yet (contacts has not created or migrated it). */
const NOT_MIGRATED = new Set(['3D000', '42P01']);

/**
 * For code of contacts' that another service hosts (the gateway's reads, automation's upsert of
 * event contacts): before contacts has made its database, what that code needs is not there yet,
 * which passes once contacts starts; it is answered as an outage (503, a message retried in place),
 * as the contacts service itself would be unavailable. Any other error is returned as it is.
 */
export function notMigratedAsNotReady(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !NOT_MIGRATED.has(code)) return error;
  return new DependencyNotReadyError("contacts' database is not created or migrated yet", { cause: error });
}
