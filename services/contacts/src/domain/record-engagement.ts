import type { MessageOf, Pool } from '@mailer/shared';
import type { emailClickedV1, emailOpenedV1 } from '@mailer/shared';
import { recordReaderHit } from '../data-access/engagement.repository';

export type EngagementHit = MessageOf<typeof emailOpenedV1> | MessageOf<typeof emailClickedV1>;

/**
 * An open or click of an email, for segments: a reader's hit moves the contact's last engagement
 * and marks the campaign opened (and clicked) in its history. A machine's hit (a link scanner, a
 * mail proxy) says nothing about the reader, so it changes nothing and is simply acked.
 */
export async function recordEngagement(pool: Pool, messageKey: string, hit: EngagementHit): Promise<void> {
  if (hit.machine) return;
  await recordReaderHit(pool, {
    messageKey,
    accountId: hit.account_id,
    contactId: hit.contact_id,
    campaignId: hit.campaign_id ?? null,
    occurredAt: hit.occurred_at,
    clicked: 'url' in hit,
  });
}
