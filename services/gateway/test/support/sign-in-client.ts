import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor } from '@mailer/testing';

/**
 * A sign-in as the account app makes it: a signed `POST /internal/v1/users/verify` on the gateway's
 * internal listener, naming the browser's address (the app learns it from the gateway's proxy).
 * The throttle, the lookup and the password check are the gateway's, whatever the caller.
 */
export async function postSignIn(
  internalUrl: string,
  attempt: { email: string; password: string; ip: string; rawBody?: string },
): Promise<{ status: number; headers: Headers; text: string }> {
  const body = attempt.rawBody ?? JSON.stringify({ email: attempt.email, password: attempt.password, ip: attempt.ip });
  const url = `${internalUrl}/internal/v1/users/verify`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: signedIdentityFor(0, { method: 'POST', url, body }) },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** How many of `statuses` are each value, e.g. `{ 401: 10, 429: 70 }`. */
export const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
