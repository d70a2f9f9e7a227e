/**
 * Whether an error means a server we depend on is unreachable or refusing work right now
 * (Postgres down or restarting, Redis or the broker gone), so the answer is 503, not 500.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? '';
  const networkCodes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'];
  if (networkCodes.includes(code)) return true;
  // Postgres classes 08 (connection), 53 (resources), 57P (operator intervention: shutdown, restart).
  if (/^(08|53|57P)/.test(code)) return true;
  const message = error.message;
  return (
    /timeout exceeded when trying to connect/i.test(message) ||
    /Connection terminated/i.test(message) ||
    /Query read timeout/i.test(message) ||
    /Client has encountered a connection error/i.test(message) ||
    /Connection is closed/i.test(message) ||
    /MaxRetriesPerRequestError|max retries per request/i.test(message)
  );
}
