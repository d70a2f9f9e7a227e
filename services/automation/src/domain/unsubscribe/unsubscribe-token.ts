import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UnsubscribeTarget {
  accountId: number;
  contactId: number;
}

const mac = (secret: string, target: UnsubscribeTarget) =>
  createHmac('sha256', secret).update(`unsubscribe:v1:${target.accountId}:${target.contactId}`).digest('base64url');

/** The secret for links: UNSUBSCRIBE_SECRET, or one derived from the internal signing secret. */
export const unsubscribeSecret = (explicit: string | undefined, signingSecret: string) =>
  explicit ?? createHmac('sha256', signingSecret).update('mailer-unsubscribe-link-v1').digest('base64url');

/** `v1.<account>.<contact>.<HMAC>`: no expiry, since a link in an old email must keep working. */
export const signUnsubscribeToken = (target: UnsubscribeTarget, secret: string) =>
  `v1.${target.accountId}.${target.contactId}.${mac(secret, target)}`;

export function verifyUnsubscribeToken(token: string, secret: string): UnsubscribeTarget | undefined {
  const match = /^v1\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const target = { accountId: Number(match[1]), contactId: Number(match[2]) };
  const expected = Buffer.from(mac(secret, target));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? target : undefined;
}

export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}/unsubscribe/${token}`;
