import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { verifyTrackingToken, type TrackedEmail } from '@mailer/shared';
import type { PublishHit } from '../data-access/tracking-publisher';
import { isMachineHit } from './machine-hit';

export interface TrackHitDeps {
  /** The key automation seals tracking URLs with (TRACKING_SECRET, or derived from the signing secret). */
  trackingSecret: string;
  publishHit: PublishHit;
  logger: Logger;
}

/** Who fetched the URL: its User-Agent, and whether it only probed (HEAD). */
export interface Visitor {
  userAgent: string | undefined;
  probe: boolean;
}

/** What the visitor is answered: where a click goes, the pixel for an open, or nothing for a bad token. */
export type HitAnswer = { kind: 'click'; url: string } | { kind: 'open' } | { kind: 'not_found' };

/** Whether a URL holds a character no Location header may carry (a token's URL never has one; refused rather than sent). */
const hasControlCharacter = (url: string): boolean => [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const emailFields = (email: TrackedEmail) =>
  email.campaignId ? { campaign_id: email.campaignId } : { workflow_id: email.workflowId, step: email.stepId };

/**
 * A fetch of a tracking URL: the token verified for the kind of URL it came on (an open token is no
 * click and the other way round), then the hit published in the background. The visitor is
 * answered at once: a reader's click never waits on the broker, and a broker that is away loses
 * the hit (logged), never the visitor's way to the link. Only the token's own URL is ever a
 * destination, so there is no open redirect.
 */
export function trackHit(deps: TrackHitDeps, kind: 'click' | 'open', token: string, visitor: Visitor, now = new Date()): HitAnswer {
  const target = verifyTrackingToken(token, deps.trackingSecret);
  if (!target || target.kind !== kind) return { kind: 'not_found' };
  if (target.kind === 'click' && hasControlCharacter(target.url)) return { kind: 'not_found' };
  const { email } = target;
  const common = {
    hit_id: randomUUID(),
    account_id: email.accountId,
    contact_id: email.contactId,
    ...emailFields(email),
    sent_at: new Date(email.sentAt * 1000).toISOString(),
    occurred_at: now.toISOString(),
    machine: visitor.probe || isMachineHit(email.sentAt, now, visitor.userAgent),
  };
  const published =
    target.kind === 'click'
      ? deps.publishHit({ kind: 'click', hit: { ...common, url: target.url, link: target.link } })
      : deps.publishHit({ kind: 'open', hit: common });
  published.catch((error: unknown) => deps.logger.warn({ err: error, hitId: common.hit_id, kind }, 'tracking hit not published; the visitor was answered'));
  return target.kind === 'click' ? { kind: 'click', url: target.url } : { kind: 'open' };
}
