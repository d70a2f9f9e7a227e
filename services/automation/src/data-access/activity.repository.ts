import type { Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

/** What happened, grouped the way the account app filters it. */
export const ACTIVITY_OUTCOMES = ['sent', 'failed', 'skipped', 'retrying', 'enrolled', 'unsubscribed'] as const;
export type ActivityOutcome = (typeof ACTIVITY_OUTCOMES)[number];

/** Which delivery_log outcomes (workflows) and campaign_sends states (campaigns) each group holds. */
const LOG_OUTCOMES: Record<ActivityOutcome, string[]> = {
  sent: ['sent'],
  failed: ['failed_permanent', 'bounced'],
  skipped: ['skipped', 'not_matched', 'already_enrolled'],
  retrying: ['retry_scheduled', 'reconciled'],
  enrolled: ['enrolled'],
  unsubscribed: ['unsubscribed'],
};
const CAMPAIGN_STATES: Record<ActivityOutcome, string[]> = {
  sent: ['sent'],
  failed: ['failed_permanent'],
  skipped: ['skipped'],
  retrying: [],
  enrolled: [],
  unsubscribed: [],
};
const FINAL_CAMPAIGN_STATES = ['sent', 'failed_permanent', 'skipped'];

export interface ActivityFilter {
  accountId: number;
  contactId?: number | undefined;
  email?: string | undefined;
  workflowId?: number | undefined;
  campaignId?: number | undefined;
  outcome?: ActivityOutcome | undefined;
  /** Keyset cursor: the (time, source, id) of the last entry of the previous page. */
  before?: { at: string; source: 'c' | 'w'; id: number } | undefined;
  limit: number;
}

export interface ActivityRow {
  source: 'w' | 'c';
  id: number;
  at: Date;
  at_text: string;
  contact_id: number | null;
  email: string | null;
  workflow_id: number | null;
  workflow: string | null;
  step_id: string | null;
  campaign_id: number | null;
  outcome: string;
  reason: string | null;
  smtp_response: string | null;
  message_id: string | null;
}

/**
 * The account's activity, newest first: every workflow decision and send of the delivery log, and
 * every final campaign outcome of the campaign ledger, in one keyset-paged list. Each side reads at
 * most `limit` rows from its own (account, time) index; the merge keeps the newest `limit`.
 */
export async function listActivity(db: Queryable, filter: ActivityFilter): Promise<ActivityRow[]> {
  const logOutcomes = filter.outcome ? LOG_OUTCOMES[filter.outcome] : null;
  const campaignStates = filter.outcome ? CAMPAIGN_STATES[filter.outcome] : FINAL_CAMPAIGN_STATES;
  const wantLog = filter.campaignId === undefined;
  const wantCampaigns = filter.workflowId === undefined && campaignStates.length > 0;
  const values = [
    filter.accountId,
    filter.contactId ?? null,
    filter.email ?? null,
    filter.workflowId ?? null,
    filter.campaignId ?? null,
    logOutcomes,
    campaignStates,
    filter.before?.at ?? null,
    filter.before?.source ?? null,
    filter.before?.id ?? null,
    filter.limit,
    wantLog,
    wantCampaigns,
  ];
  // The contact filter matches the id, or the address (the log keeps either; the projection knows both).
  const { rows } = await db.query<ActivityRow>(
    `WITH who AS (
       SELECT contact_id FROM contacts WHERE account_id = $1 AND $3::text IS NOT NULL AND lower(email) = lower($3::text)
     ), log AS (
       SELECT 'w'::text AS source, l.id, l.created_at AS at, l.contact_id, coalesce(l.email, c.email) AS email,
              l.workflow_id, w.name AS workflow, l.step_id, NULL::bigint AS campaign_id, l.outcome, l.reason,
              NULL::text AS smtp_response, l.message_id
         FROM delivery_log l
         LEFT JOIN workflows w ON w.id = l.workflow_id
         LEFT JOIN contacts c ON c.account_id = l.account_id AND c.contact_id = l.contact_id
        WHERE $12 AND l.account_id = $1
          AND ($2::bigint IS NULL OR l.contact_id = $2)
          AND ($3::text IS NULL OR lower(l.email) = lower($3::text) OR l.contact_id IN (SELECT contact_id FROM who))
          AND ($4::bigint IS NULL OR l.workflow_id = $4)
          AND ($6::text[] IS NULL OR l.outcome = ANY($6::text[]))
          AND ($8::timestamptz IS NULL OR (l.created_at, 'w'::text, l.id) < ($8::timestamptz, $9::text, $10::bigint))
        ORDER BY l.created_at DESC, l.id DESC LIMIT $11
     ), camp AS (
       SELECT 'c'::text AS source, s.id, s.updated_at AS at, s.contact_id, c.email,
              NULL::bigint AS workflow_id, NULL::text AS workflow, NULL::text AS step_id, s.campaign_id,
              CASE s.state WHEN 'failed_permanent' THEN 'failed' ELSE s.state END AS outcome, s.reason,
              s.smtp_response, s.message_id
         FROM campaign_sends s
         LEFT JOIN contacts c ON c.account_id = s.account_id AND c.contact_id = s.contact_id
        WHERE $13 AND s.account_id = $1 AND s.state = ANY($7::text[]) AND s.state IN ('sent', 'failed_permanent', 'skipped')
          AND ($2::bigint IS NULL OR s.contact_id = $2)
          AND ($3::text IS NULL OR s.contact_id IN (SELECT contact_id FROM who))
          AND ($5::bigint IS NULL OR s.campaign_id = $5)
          AND ($8::timestamptz IS NULL OR (s.updated_at, 'c'::text, s.id) < ($8::timestamptz, $9::text, $10::bigint))
        ORDER BY s.updated_at DESC, s.id DESC LIMIT $11
     )
     SELECT *, at::text AS at_text FROM (SELECT * FROM log UNION ALL SELECT * FROM camp) entries
      ORDER BY at DESC, source DESC, id DESC LIMIT $11`,
    values,
  );
  return rows;
}
