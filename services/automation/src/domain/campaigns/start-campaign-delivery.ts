import { withTransaction, type campaignSendRequestedV1, type MessageOf, type Pool } from '@mailer/shared';
import { deliveryExists, startDelivery, type FixedAudience } from '../../data-access/campaign-deliveries.repository';
import type { SegmentMembersClient } from '../../data-access/segment-members.client';
import type { EmailRenderer } from '../rendering/render-email';

type SendRequest = MessageOf<typeof campaignSendRequestedV1>;

export interface CampaignDeliveryDeps {
  pool: Pool;
  renderer: EmailRenderer;
  mailDomain: string;
  segments: Pick<SegmentMembersClient, 'members'>;
}

/**
 * Campaigns asked to send: the audience is fixed now, as one ledger row per recipient written in
 * one transaction before any email goes out (a crash leaves all of them or none). A segment's
 * members are read from the contacts service first, every page of them, so no HTTP call runs
 * inside the transaction; when contacts is away this throws `SegmentMembersUnavailable` having
 * written nothing. A template that does not parse, or a segment that no longer exists, fails the
 * whole delivery up front instead of failing every recipient. `requestId` names the work in
 * contacts' logs.
 */
export async function startCampaignDelivery(
  deps: CampaignDeliveryDeps,
  request: SendRequest,
  requestId: string,
): Promise<{ recipients: number; failureReason?: string }> {
  // A redelivered request finds its delivery started: its audience was fixed then, not read again.
  if (await deliveryExists(deps.pool, request.campaign_id)) return { recipients: 0 };
  let failureReason = checkTemplates(deps.renderer, request.content);
  let audience: FixedAudience = { kind: 'rule', audience: request.audience };
  const segmentId = request.audience.segment_id;
  if (!failureReason && segmentId) {
    const members = await deps.segments.members({ accountId: request.account_id, requestId }, segmentId);
    if (members.found) audience = { kind: 'members', contactIds: members.contactIds };
    else failureReason = 'segment not found';
  }
  const started = await withTransaction(deps.pool, async (client) => {
    const recipients = await startDelivery(
      client,
      {
        campaignId: request.campaign_id,
        accountId: request.account_id,
        content: request.content,
        audience,
        ratePerSecond: request.rate_per_second,
      },
      deps.mailDomain,
      failureReason,
    );
    return failureReason ? { recipients, failureReason } : { recipients };
  });
  // The planner's idea of the ledger would otherwise stay at its size before this audience until
  // autovacuum comes by, and it would plan the claims of a 100k send as for a handful of rows.
  // Best effort: the send is committed and goes on with the old statistics if this fails.
  if (started.recipients >= ANALYZE_AFTER_RECIPIENTS) await deps.pool.query('ANALYZE campaign_sends').catch(() => undefined);
  return started;
}

const ANALYZE_AFTER_RECIPIENTS = 1000;

function checkTemplates(renderer: EmailRenderer, content: SendRequest['content']): string | undefined {
  const parts: Array<[string, string | null, 'html' | 'text']> = [
    ['subject', content.subject, 'text'],
    ['html', content.html, 'html'],
    ['text', content.text, 'text'],
  ];
  for (const [name, source, mode] of parts) {
    if (source === null) continue;
    try {
      renderer.check(source, mode);
    } catch (error) {
      return `template error in ${name}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return undefined;
}
