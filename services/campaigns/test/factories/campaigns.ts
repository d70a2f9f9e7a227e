import { randomInt } from 'node:crypto';
import type { Pool } from '@mailer/shared';
import type { NewCampaign } from '../../src/domain/campaign';
import { insertCampaigns } from '../../src/data-access/campaigns.repository';

let sequence = 0;

/** An account id no other test of this run uses (accounts live in the gateway; here they are just numbers). */
export const uniqueAccountId = () => randomInt(1, 2 ** 30) * 1000 + (++sequence % 1000);

export const campaignFields = (overrides: Partial<NewCampaign> = {}): NewCampaign => ({
  name: `Campaign ${++sequence}`,
  title: '',
  subject: null,
  status: 'draft',
  preview_text: '',
  emails_sent: 0,
  emails_failed: 0,
  total_recipients: 0,
  unsubscribes_count: 0,
  send_at: null,
  sent_at: null,
  created_at: null,
  updated_at: null,
  ...overrides,
});

/** Stores campaigns for an account through the repository the import uses; returns ids in order. */
export const createCampaigns = (pool: Pool, accountId: number, rows: Array<Partial<NewCampaign>>) =>
  insertCampaigns(pool, accountId, rows.map((row) => campaignFields(row)));

export const createCampaign = async (pool: Pool, accountId: number, row: Partial<NewCampaign> = {}) => {
  const [id] = await createCampaigns(pool, accountId, [row]);
  return id!;
};
