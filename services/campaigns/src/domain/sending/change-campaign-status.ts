import { AppError, campaignControlV1, campaignSendRequestedV1, CommonErrorCodes, notFound, withTransaction, type Pool } from '@mailer/shared';
import type { PoolClient } from 'pg';
import { findCampaignRecord, updateLifecycle, type LifecycleChange } from '../../data-access/campaign-records.repository';
import { addToOutbox } from '../../data-access/outbox.repository';
import { findSendingSettings } from '../../data-access/sending-settings.repository';
import { nextStatus } from './campaign-lifecycle';
import { audienceOf, contentOf } from './campaign-message';
import type { CampaignRecord } from './campaign-record';

/** The operator- and app-driven actions (finish and fail come from automation's progress only). */
export type DriveAction = 'approve' | 'return_to_draft' | 'send' | 'pause' | 'resume' | 'cancel' | 'retry_failed';

/**
 * Applies one lifecycle action in a transaction: locks the campaign, asks the lifecycle table
 * whether it is allowed, writes the new status and, in the same commit, the request automation
 * must act on (outbox). `sendAt` schedules instead of sending now.
 */
export async function changeCampaignStatus(
  pool: Pool,
  accountId: number,
  id: number,
  action: DriveAction,
  options: { sendAt?: Date | undefined } = {},
): Promise<CampaignRecord> {
  return withTransaction(pool, async (client) => {
    const campaign = await findCampaignRecord(client, accountId, id, true);
    if (!campaign) throw notFound('campaign');
    await apply(client, campaign, action, options.sendAt);
    return (await findCampaignRecord(client, accountId, id))!;
  });
}

async function apply(client: PoolClient, campaign: CampaignRecord, action: DriveAction, sendAt: Date | undefined): Promise<void> {
  if (action === 'send') {
    if (sendAt !== undefined && sendAt.getTime() > Date.now()) {
      await updateLifecycle(client, campaign.id, { status: nextStatus(campaign, 'schedule'), send_at: sendAt });
      return;
    }
    await startSending(client, campaign, 'send_now');
    return;
  }
  if (action === 'approve' || action === 'return_to_draft') {
    const approved = action === 'approve';
    await updateLifecycle(client, campaign.id, { status: nextStatus(campaign, action), approved_at: approved ? new Date() : null });
    return;
  }
  if (action === 'cancel' && campaign.status === 'scheduled') {
    await updateLifecycle(client, campaign.id, { status: nextStatus(campaign, 'cancel'), send_at: null });
    return;
  }
  const change: LifecycleChange = { status: nextStatus(campaign, action), bumpControl: true };
  if (action === 'pause') change.paused = true;
  if (action === 'resume') change.paused = false;
  if (action === 'cancel') Object.assign(change, { paused: false, failure_reason: 'cancelled' });
  if (action === 'retry_failed') change.sent_at = null;
  const version = await updateLifecycle(client, campaign.id, change);
  await addToOutbox(client, campaignControlV1, {
    account_id: campaign.account_id,
    campaign_id: campaign.id,
    action,
    version,
    occurred_at: new Date().toISOString(),
  });
}

/** approved (send now) or scheduled (its time came) → sending, with the request to automation. */
export async function startSending(client: PoolClient, campaign: CampaignRecord, action: 'send_now' | 'start_scheduled'): Promise<void> {
  const status = nextStatus(campaign, action);
  if (!campaign.html) throw new AppError(CommonErrorCodes.VALIDATION, 'the campaign has no HTML body');
  const settings = await findSendingSettings(client, campaign.account_id);
  await updateLifecycle(client, campaign.id, { status, started_at: new Date(), paused: false, failure_reason: null, resetCounts: true });
  await addToOutbox(client, campaignSendRequestedV1, {
    account_id: campaign.account_id,
    campaign_id: campaign.id,
    content: contentOf(campaign, settings),
    audience: audienceOf(campaign),
    rate_per_second: settings.rate_per_second,
    occurred_at: new Date().toISOString(),
  });
}
