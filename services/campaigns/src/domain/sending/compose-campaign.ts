import { notFound, withTransaction, type Pool } from '@mailer/shared';
import { findCampaignRecord, insertDraft, updateContent } from '../../data-access/campaign-records.repository';
import { nextStatus } from './campaign-lifecycle';
import { parseCampaignChanges, parseNewCampaign } from './campaign-content.schema';
import type { CampaignRecord } from './campaign-record';

/** A new draft: content and audience rule, validated whole (422 with every problem, nothing written). */
export async function createCampaign(pool: Pool, accountId: number, input: unknown): Promise<CampaignRecord> {
  const content = parseNewCampaign(input);
  const id = await insertDraft(pool, accountId, content);
  return (await findCampaignRecord(pool, accountId, id))!;
}

/** Changes a draft's content; any other status is refused (content is frozen from approval on). */
export async function updateCampaign(pool: Pool, accountId: number, id: number, input: unknown): Promise<CampaignRecord> {
  const changes = parseCampaignChanges(input);
  return withTransaction(pool, async (client) => {
    const campaign = await findCampaignRecord(client, accountId, id, true);
    if (!campaign) throw notFound('campaign');
    nextStatus(campaign, 'edit');
    await updateContent(client, id, changes);
    return (await findCampaignRecord(client, accountId, id))!;
  });
}
