import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header the gateway sets and every internal service verifies. */
export const IDENTITY_HEADER = 'x-mailer-identity';

/** How far a signature's timestamp may be from the verifier's clock (replay window). */
export const SIGNATURE_WINDOW_SECONDS = 60;

export interface Identity {
  accountId: number;
  requestId: string;
}

const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** `v1.<account>.<request id>.<unix seconds>.<HMAC-SHA256>`: binds the account to this request. */
export function signIdentity(identity: Identity, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const payload = `v1.${identity.accountId}.${identity.requestId}.${nowSeconds}`;
  return `${payload}.${mac(secret, payload)}`;
}

/** The identity in a header, or undefined when it is missing, forged, altered or stale. */
export function verifyIdentity(
  header: string | undefined,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Identity | undefined {
  if (!header) return undefined;
  const match = /^v1\.(\d{1,15})\.([A-Za-z0-9._:-]{1,128})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(header);
  if (!match) return undefined;
  const [, account, requestId, timestamp, signature] = match as unknown as [string, string, string, string, string];
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return undefined;
  const expected = Buffer.from(mac(secret, `v1.${account}.${requestId}.${timestamp}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return { accountId: Number(account), requestId };
}
