import { notFound } from '@mailer/shared';
import type { Queryable } from '../data-access/queryable';
import { findCampaign } from '../data-access/campaigns.repository';
import type { Campaign } from './campaign';

/** One campaign of the account; another account's campaign is as missing as an unknown one. */
export async function getCampaign(db: Queryable, accountId: number, id: number): Promise<Campaign> {
  const campaign = await findCampaign(db, accountId, id);
  if (!campaign) throw notFound('campaign');
  return campaign;
}
