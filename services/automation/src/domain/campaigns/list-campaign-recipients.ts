import { validationFailed, type Pool } from '@mailer/shared';
import { listCampaignRecipients, type RecipientOutcome } from '../../data-access/campaign-sends.repository';

const OUTCOMES: RecipientOutcome[] = ['sent', 'failed', 'skipped', 'pending'];
export const MAX_RECIPIENTS_PAGE = 1000;

export interface RecipientsQuery {
  accountId: number;
  campaignId: number;
  outcome?: string | undefined;
  after?: number | undefined;
  limit?: number | undefined;
}

/**
 * One page of a campaign's per-recipient outcomes (sent with the SMTP answer, failed or skipped
 * with why, pending), in ledger order; `next_after` continues it (null at the end).
 */
export async function listRecipientsPage(pool: Pool, query: RecipientsQuery) {
  if (query.outcome !== undefined && !OUTCOMES.includes(query.outcome as RecipientOutcome)) {
    throw validationFailed([`outcome must be one of ${OUTCOMES.join(', ')}`]);
  }
  const limit = Math.min(query.limit ?? MAX_RECIPIENTS_PAGE, MAX_RECIPIENTS_PAGE);
  const rows = await listCampaignRecipients(pool, {
    accountId: query.accountId,
    campaignId: query.campaignId,
    outcome: query.outcome as RecipientOutcome | undefined,
    afterId: query.after ?? 0,
    limit,
  });
  const data = rows.map(({ id: _id, sent_at, updated_at, ...recipient }) => ({
    ...recipient,
    sent_at: sent_at?.toISOString() ?? null,
    updated_at: updated_at.toISOString(),
  }));
  return { data, next_after: rows.length === limit ? (rows.at(-1)?.id ?? null) : null };
}
