import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The header the gateway sets and every internal service verifies. */
export const IDENTITY_HEADER = 'x-mailer-identity';

/**
 * How far a signature's timestamp may be from the verifier's clock. Seconds, not a minute: the
 * gateway signs just before it sends, so the window only has to cover clock skew in one deployment.
 */
export const SIGNATURE_WINDOW_SECONDS = 5;

/** The digest part of a signature for a request without a body. */
export const NO_BODY = '-';

export interface Identity {
  accountId: number;
  requestId: string;
  /** SHA-256 (base64url) of the body the signature covers, or NO_BODY. */
  bodyDigest: string;
}

/** What a signature binds besides the identity: the request it was made for. */
export interface SignedRequest {
  method: string;
  /** Path with query, exactly as sent on the request line. */
  path: string;
}

/** The digest a signature carries for `body`: hashed only when there is one (GETs pay nothing). */
export const bodyDigest = (body: Buffer | null | undefined): string =>
  body && body.length > 0 ? createHash('sha256').update(body).digest('base64url') : NO_BODY;

const mac = (secret: string, payload: string, request: SignedRequest) =>
  createHmac('sha256', secret).update(`${payload}\n${request.method.toUpperCase()}\n${request.path}`).digest('base64url');

/**
 * `v2.<account>.<request id>.<unix seconds>.<body digest>.<HMAC-SHA256>`, the HMAC over those parts
 * plus the method and the path with query: a captured header authorises only the request it came
 * with (same method, path, query and body), and only for a few seconds.
 */
export function signIdentity(
  identity: { accountId: number; requestId: string },
  request: SignedRequest & { body?: Buffer | null },
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const payload = `v2.${identity.accountId}.${identity.requestId}.${nowSeconds}.${bodyDigest(request.body)}`;
  return `${payload}.${mac(secret, payload, request)}`;
}

const SIGNED = /^v2\.(\d{1,15})\.([A-Za-z0-9._:-]{1,128})\.(\d{1,12})\.(-|[A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

/**
 * The identity in a header when it was signed for this method and path, recently; otherwise
 * undefined (missing, forged, altered, stale, or made for another request). The body digest is
 * returned for the body reader to compare (see `jsonBody`), since the body has not arrived yet.
 */
export function verifyIdentity(
  header: string | undefined,
  request: SignedRequest,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Identity | undefined {
  if (!header) return undefined;
  const match = SIGNED.exec(header);
  if (!match) return undefined;
  const [, account, requestId, timestamp, digest, signature] = match as unknown as [string, string, string, string, string, string];
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return undefined;
  const expected = Buffer.from(mac(secret, `v2.${account}.${requestId}.${timestamp}.${digest}`, request));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return { accountId: Number(account), requestId, bodyDigest: digest };
}
