/**
 * A server we depend on answers, but what we need on it is not there yet: another service's
 * database before that service has created or migrated it. Handled as an outage (503, a message
 * retried in place), since it passes by itself once that service has started.
 */
export class DependencyNotReadyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DependencyNotReadyError';
  }
}

/**
 * Whether an error means a server we depend on is unreachable or refusing work right now
 * (Postgres down or restarting, Redis or the broker gone), so the answer is 503, not 500.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  if (error instanceof DependencyNotReadyError) return true;
  // Not `instanceof Error`: errors raised by Node's own net/dns code come from another realm under
  // jest (and vm contexts), where that check is false and an outage would read as a 500.
  if (typeof error !== 'object' || error === null) return false;
  const code = String((error as { code?: unknown }).code ?? '');
  const networkCodes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'];
  if (networkCodes.includes(code)) return true;
  // Postgres classes 08 (connection), 53 (resources), 57P (operator intervention: shutdown, restart).
  if (/^(08|53|57P)/.test(code)) return true;
  const message = String((error as { message?: unknown }).message ?? '');
  return (
    /timeout exceeded when trying to connect/i.test(message) ||
    /Connection terminated/i.test(message) ||
    /Query read timeout/i.test(message) ||
    /Client has encountered a connection error/i.test(message) ||
    /Connection is closed/i.test(message) ||
    /MaxRetriesPerRequestError|max retries per request/i.test(message)
  );
}

/** Postgres: the database or a table does not exist yet (its service has not created or migrated it). */
const NOT_MIGRATED = new Set(['3D000', '42P01']);

/**
 * For a service's code that another service hosts (the gateway's reads and enrolments, automation's
 * upsert of event contacts): before the owner has made its database, what that code needs is not
 * there yet, which passes once the owner starts; it is answered as an outage (503, a message
 * retried in place), as the owning service itself would be unavailable. Any other error is returned as it is.
 */
export function notMigratedAsNotReady(error: unknown, owner: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !NOT_MIGRATED.has(code)) return error;
  return new DependencyNotReadyError(`${owner}'s database is not created or migrated yet`, { cause: error });
}
