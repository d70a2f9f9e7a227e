import { validationFailed, withTransaction, type Pool } from '@mailer/shared';
import { insertCampaigns } from '../data-access/campaigns.repository';
import type { NewCampaign } from './campaign';
import { validateCampaignImport } from './campaign-import.schema';

/** Checks a whole import file before anything is written; a 422-style error lists every problem. */
export function prepareCampaignImport(json: unknown): NewCampaign[] {
  const validation = validateCampaignImport(json);
  if (!validation.ok) throw validationFailed(validation.problems);
  return validation.campaigns;
}

/**
 * Stores validated campaigns for one account: all rows or none (one statement, one transaction).
 * The account id is not checked against the gateway's accounts: services share no tables.
 */
export async function importCampaigns(pool: Pool, accountId: number, campaigns: NewCampaign[]): Promise<number[]> {
  if (campaigns.length === 0) return [];
  return withTransaction(pool, (client) => insertCampaigns(client, accountId, campaigns));
}
