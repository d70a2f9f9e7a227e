import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UnsubscribeTarget {
  accountId: number;
  contactId: number;
  /** Set when the link came in a campaign email: the campaign counts the unsubscribe. */
  campaignId?: number | undefined;
  /** Set when the link came in a workflow email: the step's figures count the unsubscribe. */
  workflowId?: number | undefined;
  stepId?: string | undefined;
}

/** What the MAC covers: the variant and every id the link names. */
function signedText(target: UnsubscribeTarget): string {
  if (target.campaignId !== undefined) return `unsubscribe:c1:${target.accountId}:${target.contactId}:${target.campaignId}`;
  if (target.workflowId !== undefined && target.stepId !== undefined) {
    return `unsubscribe:w1:${target.accountId}:${target.contactId}:${target.workflowId}:${target.stepId}`;
  }
  return `unsubscribe:v1:${target.accountId}:${target.contactId}`;
}

const mac = (secret: string, target: UnsubscribeTarget) => createHmac('sha256', secret).update(signedText(target)).digest('base64url');

/** The secret for links: UNSUBSCRIBE_SECRET, or one derived from the internal signing secret. */
export const unsubscribeSecret = (explicit: string | undefined, signingSecret: string) =>
  explicit ?? createHmac('sha256', signingSecret).update('mailer-unsubscribe-link-v1').digest('base64url');

/**
 * `c1.<account>.<contact>.<campaign>.<HMAC>` (campaign emails), `w1.<account>.<contact>.<workflow>.<step,
 * base64url>.<HMAC>` (workflow emails; a step id may hold dots), or `v1.<account>.<contact>.<HMAC>`
 * (workflow emails sent before links named their step; still verified). No expiry, since a link
 * in an old email must keep working.
 */
export function signUnsubscribeToken(target: UnsubscribeTarget, secret: string): string {
  const signature = mac(secret, target);
  if (target.campaignId !== undefined) return `c1.${target.accountId}.${target.contactId}.${target.campaignId}.${signature}`;
  if (target.workflowId !== undefined && target.stepId !== undefined) {
    return `w1.${target.accountId}.${target.contactId}.${target.workflowId}.${Buffer.from(target.stepId).toString('base64url')}.${signature}`;
  }
  return `v1.${target.accountId}.${target.contactId}.${signature}`;
}

const TOKEN =
  /^(?:v1\.(\d{1,15})\.(\d{1,15})|c1\.(\d{1,15})\.(\d{1,15})\.(\d{1,15})|w1\.(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{1,88}))\.([A-Za-z0-9_-]{43})$/;

function targetOf(match: RegExpExecArray): UnsubscribeTarget {
  if (match[1] !== undefined) return { accountId: Number(match[1]), contactId: Number(match[2]) };
  if (match[3] !== undefined) return { accountId: Number(match[3]), contactId: Number(match[4]), campaignId: Number(match[5]) };
  return { accountId: Number(match[6]), contactId: Number(match[7]), workflowId: Number(match[8]), stepId: Buffer.from(match[9]!, 'base64url').toString('utf8') };
}

export function verifyUnsubscribeToken(token: string, secret: string): UnsubscribeTarget | undefined {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const target = targetOf(match);
  const expected = Buffer.from(mac(secret, target));
  const given = Buffer.from(match[10]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? target : undefined;
}

export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}/unsubscribe/${token}`;
