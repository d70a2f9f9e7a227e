import { campaignSentV1, PoisonMessageError, withTransaction, type campaignProgressV1, type MessageOf, type Pool } from '@mailer/shared';
import { addToOutbox } from '../../data-access/outbox.repository';
import { applyCounts, findCampaignRecord, updateLifecycle } from '../../data-access/campaign-records.repository';
import { nextStatus } from './campaign-lifecycle';

export type ProgressEffect = 'applied' | 'stale' | 'finished' | 'failed';

/**
 * Automation's counts for a campaign: newer ones replace older ones (absolute numbers, so a
 * redelivered or reordered message changes nothing wrong). When automation says every recipient
 * has a final outcome, a sending campaign becomes sent; a reported failure makes it failed.
 */
export async function applyCampaignProgress(pool: Pool, progress: MessageOf<typeof campaignProgressV1>): Promise<ProgressEffect> {
  return withTransaction(pool, async (client) => {
    const campaign = await findCampaignRecord(client, progress.account_id, progress.campaign_id, true);
    if (!campaign) throw new PoisonMessageError(`account ${progress.account_id} has no campaign ${progress.campaign_id}`);
    const applied = await applyCounts(client, progress.account_id, progress.campaign_id, progress);
    if (!applied) return 'stale';
    if (campaign.status !== 'sending') return 'applied';
    if (progress.failure_reason !== null) {
      await updateLifecycle(client, campaign.id, { status: nextStatus(campaign, 'fail'), failure_reason: progress.failure_reason, paused: false });
      return 'failed';
    }
    // A count from before the newest control (a retry of failed recipients) cannot end the send.
    if (progress.finished && progress.control_version >= campaign.control_version) {
      const sentAt = new Date();
      await updateLifecycle(client, campaign.id, { status: nextStatus(campaign, 'finish'), sent_at: sentAt, paused: false });
      // Once per campaign: only the transition out of `sending` writes it (webhooks' campaign.sent).
      await addToOutbox(client, campaignSentV1, {
        account_id: progress.account_id,
        campaign_id: campaign.id,
        name: campaign.name,
        total_recipients: progress.total_recipients,
        sent: progress.sent,
        failed: progress.failed,
        skipped: progress.skipped,
        sent_at: sentAt.toISOString(),
      });
      return 'finished';
    }
    return 'applied';
  });
}
