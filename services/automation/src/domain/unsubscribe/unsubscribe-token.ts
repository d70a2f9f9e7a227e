import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UnsubscribeTarget {
  accountId: number;
  contactId: number;
  /** Set when the link came in a campaign email: the campaign counts the unsubscribe. */
  campaignId?: number | undefined;
}

const mac = (secret: string, target: UnsubscribeTarget) =>
  createHmac('sha256', secret)
    .update(
      target.campaignId === undefined
        ? `unsubscribe:v1:${target.accountId}:${target.contactId}`
        : `unsubscribe:c1:${target.accountId}:${target.contactId}:${target.campaignId}`,
    )
    .digest('base64url');

/** The secret for links: UNSUBSCRIBE_SECRET, or one derived from the internal signing secret. */
export const unsubscribeSecret = (explicit: string | undefined, signingSecret: string) =>
  explicit ?? createHmac('sha256', signingSecret).update('mailer-unsubscribe-link-v1').digest('base64url');

/**
 * `v1.<account>.<contact>.<HMAC>` (workflow emails) or `c1.<account>.<contact>.<campaign>.<HMAC>`
 * (campaign emails): no expiry, since a link in an old email must keep working.
 */
export const signUnsubscribeToken = (target: UnsubscribeTarget, secret: string) =>
  target.campaignId === undefined
    ? `v1.${target.accountId}.${target.contactId}.${mac(secret, target)}`
    : `c1.${target.accountId}.${target.contactId}.${target.campaignId}.${mac(secret, target)}`;

export function verifyUnsubscribeToken(token: string, secret: string): UnsubscribeTarget | undefined {
  const match = /^(?:v1\.(\d{1,15})\.(\d{1,15})|c1\.(\d{1,15})\.(\d{1,15})\.(\d{1,15}))\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const target: UnsubscribeTarget =
    match[1] !== undefined
      ? { accountId: Number(match[1]), contactId: Number(match[2]) }
      : { accountId: Number(match[3]), contactId: Number(match[4]), campaignId: Number(match[5]) };
  const expected = Buffer.from(mac(secret, target));
  const given = Buffer.from(match[6]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? target : undefined;
}

export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}/unsubscribe/${token}`;
