/**
 * Whether an error means a server we depend on is unreachable or refusing work right now
 * (Postgres down or restarting, Redis or the broker gone), so the answer is 503, not 500.
 */
export function isDependencyUnavailable(error: unknown): boolean {
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
