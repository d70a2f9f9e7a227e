import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ConfirmationTarget {
  accountId: number;
  contactId: number;
}

// Its own purpose string: an unsubscribe token can never pass for a confirmation, nor the reverse.
const mac = (secret: string, target: ConfirmationTarget) =>
  createHmac('sha256', secret).update(`confirm:v1:${target.accountId}:${target.contactId}`).digest('base64url');

/** `v1.<account>.<contact>.<HMAC>`, signed with the link secret (UNSUBSCRIBE_SECRET or derived). */
export const signConfirmationToken = (target: ConfirmationTarget, secret: string) => `v1.${target.accountId}.${target.contactId}.${mac(secret, target)}`;

export function verifyConfirmationToken(token: string, secret: string): ConfirmationTarget | undefined {
  const match = /^v1\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const target = { accountId: Number(match[1]), contactId: Number(match[2]) };
  const expected = Buffer.from(mac(secret, target));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? target : undefined;
}

export const confirmationUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}/confirm/${token}`;
