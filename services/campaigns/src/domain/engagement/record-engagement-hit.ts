import { withTransaction, type emailClickedV1, type emailOpenedV1, type MessageOf, type Pool } from '@mailer/shared';
import { countContactHit, countLinkClick } from '../../data-access/engagement.repository';
import { claimMessage } from '../../data-access/processed-messages.repository';

export type EngagementHit =
  | { kind: 'open'; payload: MessageOf<typeof emailOpenedV1> }
  | { kind: 'click'; payload: MessageOf<typeof emailClickedV1> };

export type EngagementEffect = 'counted' | 'duplicate' | 'workflow_email' | 'unknown_campaign';

/**
 * Counts one tracking hit of a campaign's email, once: the inbox row (`engagement:<hit id>`) is
 * claimed in the transaction of the counts, so a redelivered hit changes nothing. Workflow emails
 * are automation's to count. A hit for a campaign this account does not have is dropped (its
 * token was signed for a campaign; nothing here could ever count it).
 */
export async function recordEngagementHit(pool: Pool, hit: EngagementHit): Promise<EngagementEffect> {
  const { payload } = hit;
  const campaignId = payload.campaign_id;
  if (campaignId === undefined) return 'workflow_email';
  return withTransaction(pool, async (client) => {
    if (!(await claimMessage(client, `engagement:${payload.hit_id}`))) return 'duplicate';
    const counted = await countContactHit(client, {
      kind: hit.kind,
      machine: payload.machine,
      accountId: payload.account_id,
      campaignId,
      contactId: payload.contact_id,
      occurredAt: payload.occurred_at,
    });
    if (!counted) return 'unknown_campaign';
    if (hit.kind === 'click' && !payload.machine) {
      await countLinkClick(client, campaignId, payload.contact_id, hit.payload.url, payload.occurred_at);
    }
    return 'counted';
  });
}
