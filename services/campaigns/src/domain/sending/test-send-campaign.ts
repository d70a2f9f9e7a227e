import { campaignTestRequestedV1, notFound, validationFailed, withTransaction, type Pool } from '@mailer/shared';
import { z } from 'zod';
import { findCampaignRecord } from '../../data-access/campaign-records.repository';
import { addToOutbox } from '../../data-access/outbox.repository';
import { findSendingSettings } from '../../data-access/sending-settings.repository';
import { nextStatus } from './campaign-lifecycle';
import { contentOf } from './campaign-message';

const address = z.string().trim().max(254).email();

/**
 * Asks automation to send the campaign's current content to one address (draft or approved),
 * personalised as that address's contact when the account has one, else with fallbacks only.
 * Returns once the request is committed; automation sends it within a moment.
 */
export async function testSendCampaign(pool: Pool, accountId: number, id: number, to: unknown): Promise<{ to: string }> {
  const parsed = address.safeParse(to);
  if (!parsed.success) throw validationFailed(['to: must be an email address']);
  return withTransaction(pool, async (client) => {
    const campaign = await findCampaignRecord(client, accountId, id);
    if (!campaign) throw notFound('campaign');
    nextStatus(campaign, 'test');
    const settings = await findSendingSettings(client, accountId);
    await addToOutbox(client, campaignTestRequestedV1, {
      account_id: accountId,
      campaign_id: id,
      to: parsed.data,
      content: contentOf(campaign, settings),
      occurred_at: new Date().toISOString(),
    });
    return { to: parsed.data };
  });
}
