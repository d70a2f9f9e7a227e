import { withTransaction, type Pool } from '@mailer/shared';
import { findCampaignRecord, lockDueCampaigns } from '../../data-access/campaign-records.repository';
import { startSending } from './change-campaign-status';

const BATCH = 20;

/** Scheduled campaigns whose send_at has passed start sending (any number of instances: each row once). */
export async function startDueCampaigns(pool: Pool): Promise<number> {
  return withTransaction(pool, async (client) => {
    const due = await lockDueCampaigns(client, BATCH);
    for (const { id, account_id } of due) {
      const campaign = await findCampaignRecord(client, account_id, id);
      if (campaign) await startSending(client, campaign, 'start_scheduled');
    }
    return due.length;
  });
}
