import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from '@mailer/shared';
import type { ProjectedContact } from './contacts.repository';
import type { OutboxFact } from './outbox.repository';
import type { SendOutcome, SendState } from './sends.repository';

type Queryable = Pool | PoolClient;

export interface ClaimedCampaignSend {
  id: number;
  campaign_id: number;
  account_id: number;
  contact_id: number;
  message_id: string;
  /** Also the fencing token: only the holder of this attempt may record the outcome. */
  attempts: number;
  previous_state: SendState;
  /** The projection row read by the claim (suppression as fresh as the claim), or null. */
  contact: ProjectedContact | null;
}

/**
 * Claims up to `limit` due rows of one campaign, only while its delivery is `sending` (a pause or
 * cancel stops claims at once): pending or retrying rows whose time has come, and claims whose
 * lease expired (a crashed instance). SKIP LOCKED lets instances claim side by side.
 */
export async function claimCampaignSends(
  pool: Pool,
  campaignId: number,
  instance: string,
  limit: number,
  leaseMs: number,
  /** Also take over lapsed claims: their index holds an entry per row ever claimed, so not on every call. */
  includeLapsed = true,
): Promise<ClaimedCampaignSend[]> {
  const { rows } = await pool.query<ClaimedCampaignSend>({
    name: 'automation.claim-campaign-sends',
    // Two candidate sets, each read from its own partial index in index order and stopped at the
    // limit: rows due now, and rows whose claim lapsed. As one OR they became a bitmap scan that
    // read every entry of both indexes on each claim, including those of rows sent meanwhile and
    // not yet vacuumed: 127 ms per claim at the end of a 100k send. An ordered index scan also
    // marks such entries dead as it passes, so the next claim skips them.
    text: `WITH live AS (
             SELECT 1 FROM campaign_deliveries d WHERE d.campaign_id = $1 AND d.state = 'sending'
           ), due AS (
             SELECT cs.id, cs.state, cs.account_id, cs.contact_id, cs.due_at FROM campaign_sends cs
              WHERE cs.campaign_id = $1 AND cs.state IN ('pending', 'failed_transient') AND cs.due_at <= now()
                AND EXISTS (SELECT 1 FROM live)
              ORDER BY cs.due_at, cs.id
              LIMIT $4
              FOR UPDATE OF cs SKIP LOCKED
           ), lapsed AS (
             SELECT cs.id, cs.state, cs.account_id, cs.contact_id, cs.due_at FROM campaign_sends cs
              WHERE $5::boolean AND cs.campaign_id = $1 AND cs.state = 'claimed' AND cs.lease_until < now()
                AND EXISTS (SELECT 1 FROM live)
              ORDER BY cs.lease_until
              LIMIT $4
              FOR UPDATE OF cs SKIP LOCKED
           ), candidates AS (
             SELECT * FROM lapsed UNION ALL SELECT * FROM due LIMIT $4
           )
           UPDATE campaign_sends s
        SET state = 'claimed', attempts = s.attempts + 1, claimed_by = $2,
            lease_until = now() + $3 * interval '1 millisecond', updated_at = now()
       FROM candidates due
       LEFT JOIN contacts c ON c.account_id = due.account_id AND c.contact_id = due.contact_id
      WHERE s.id = due.id
  RETURNING s.id, s.campaign_id, s.account_id, s.contact_id, s.message_id, s.attempts, due.state AS previous_state,
            CASE WHEN c.contact_id IS NULL THEN NULL ELSE json_build_object(
              'account_id', c.account_id, 'contact_id', c.contact_id, 'email', c.email,
              'first_name', c.first_name, 'last_name', c.last_name, 'subscribed', c.subscribed,
              'bounced', c.bounced, 'deleted', c.deleted, 'suppression', c.suppression, 'tags', c.tags, 'custom_properties', c.custom_properties)
            END AS contact`,
    values: [campaignId, instance, leaseMs, limit, includeLapsed],
  });
  return rows;
}

export interface CampaignSendOutcome extends SendOutcome {
  /** A final failure caused by something temporary (retries exhausted): eligible for "retry failed". */
  temporaryFailure?: boolean;
  /** The subject as rendered for the contact, once the email was rendered (kept on the ledger row). */
  subject?: string | undefined;
}

/**
 * Records an attempt's outcome, fenced by the attempt number (only the current claimant writes),
 * with its facts (a bounce) and the projection's bounce flag in the same statement. False when the
 * claim was lost meanwhile.
 */
export async function recordCampaignOutcome(
  db: Queryable,
  send: ClaimedCampaignSend,
  outcome: CampaignSendOutcome,
  facts: OutboxFact[],
  markBounced: boolean,
): Promise<boolean> {
  const { rows } = await db.query<{ recorded: number }>({
    name: 'automation.record-campaign-outcome',
    text: `WITH outcome AS (
       UPDATE campaign_sends
          SET state = $3, reason = $4, smtp_response = coalesce($5, smtp_response), temporary_failure = $6, subject = coalesce($14, subject),
              sent_at = CASE WHEN $3 = 'sent' THEN now() ELSE sent_at END,
              due_at = CASE WHEN $3 = 'failed_transient' THEN now() + $7::float8 * interval '1 millisecond' ELSE due_at END,
              claimed_by = NULL, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND state = 'claimed' AND attempts = $2
       RETURNING id),
     facts AS (
       INSERT INTO outbox (message_id, type, payload)
       SELECT fact.message_id, fact.type, fact.payload
         FROM outcome, unnest($8::uuid[], $9::text[], $10::jsonb[]) AS fact (message_id, type, payload)),
     bounced AS (
       UPDATE contacts SET bounced = true, fact_at = greatest(fact_at, now()), updated_at = now()
        WHERE $11::boolean AND account_id = $12 AND contact_id = $13 AND EXISTS (SELECT 1 FROM outcome))
     SELECT count(*)::int AS recorded FROM outcome`,
    values: [
      send.id,
      send.attempts,
      outcome.state,
      outcome.reason ?? null,
      outcome.smtpResponse ?? null,
      outcome.temporaryFailure ?? false,
      outcome.retryInMs ?? 0,
      facts.map(() => randomUUID()),
      facts.map((fact) => fact.type),
      facts.map((fact) => JSON.stringify(fact.payload)),
      markBounced,
      send.account_id,
      send.contact_id,
      outcome.subject ?? null,
    ],
  });
  return rows[0]?.recorded === 1;
}

/** One attempt's outcome when it causes nothing else (no fact, no bounce): batched with others. */
export interface BatchedOutcome {
  id: number;
  attempts: number;
  outcome: CampaignSendOutcome;
}

/** Records many plain outcomes in one statement, each fenced by its attempt; returns the ids recorded. */
export async function recordCampaignOutcomes(db: Queryable, outcomes: BatchedOutcome[]): Promise<Set<number>> {
  const { rows } = await db.query<{ id: number }>({
    name: 'automation.record-campaign-outcomes',
    text: `UPDATE campaign_sends s
        SET state = v.state, reason = v.reason, smtp_response = coalesce(v.smtp_response, s.smtp_response),
            temporary_failure = v.temporary, subject = coalesce(v.subject, s.subject), sent_at = CASE WHEN v.state = 'sent' THEN now() ELSE s.sent_at END,
            due_at = CASE WHEN v.state = 'failed_transient' THEN now() + v.retry_ms * interval '1 millisecond' ELSE s.due_at END,
            claimed_by = NULL, lease_until = NULL, updated_at = now()
       FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::float8[], $8::text[])
            AS v (id, attempts, state, reason, smtp_response, temporary, retry_ms, subject)
      WHERE s.id = v.id AND s.state = 'claimed' AND s.attempts = v.attempts
  RETURNING s.id`,
    values: [
      outcomes.map((entry) => entry.id),
      outcomes.map((entry) => entry.attempts),
      outcomes.map((entry) => entry.outcome.state),
      outcomes.map((entry) => entry.outcome.reason ?? null),
      outcomes.map((entry) => entry.outcome.smtpResponse ?? null),
      outcomes.map((entry) => entry.outcome.temporaryFailure ?? false),
      outcomes.map((entry) => entry.outcome.retryInMs ?? 0),
      outcomes.map((entry) => entry.outcome.subject ?? null),
    ],
  });
  return new Set(rows.map((row) => row.id));
}

export interface CampaignCounts {
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  /** Of `failed`: refused at RCPT with a 5xx (send-campaign-email records those as `bounced: …`). */
  bounced: number;
  /** Not final yet: pending, claimed or waiting for a retry. */
  open: number;
  unsubscribes: number;
  /** The database's clock when counted, in microseconds (orders reports across instances). */
  counted_at: number;
}

/** The campaign's counts, from its ledger rows (index on campaign_id, state). */
export async function countCampaignSends(db: Queryable, campaignId: number): Promise<CampaignCounts> {
  const { rows } = await db.query<CampaignCounts>({
    name: 'automation.count-campaign-sends',
    text: `SELECT count(*)::int AS total,
                  count(*) FILTER (WHERE state = 'sent')::int AS sent,
                  count(*) FILTER (WHERE state = 'failed_permanent')::int AS failed,
                  count(*) FILTER (WHERE state = 'skipped')::int AS skipped,
                  count(*) FILTER (WHERE state = 'failed_permanent' AND reason LIKE 'bounced:%')::int AS bounced,
                  count(*) FILTER (WHERE state IN ('pending', 'claimed', 'failed_transient'))::int AS open,
                  (SELECT count(*)::int FROM campaign_unsubscribes WHERE campaign_id = $1) AS unsubscribes,
                  (extract(epoch FROM clock_timestamp()) * 1e6)::bigint AS counted_at
             FROM campaign_sends WHERE campaign_id = $1`,
    values: [campaignId],
  });
  return rows[0]!;
}

/** Cancel: every recipient not yet sent to gets a final outcome, skipped with reason "cancelled". */
export async function skipOpenSends(db: Queryable, campaignId: number, reason: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE campaign_sends SET state = 'skipped', reason = $2, claimed_by = NULL, lease_until = NULL, updated_at = now()
      WHERE campaign_id = $1 AND state IN ('pending', 'failed_transient')`,
    [campaignId, reason],
  );
  return rowCount ?? 0;
}

/** Retry failed: recipients whose final failure was temporary, never retried before, are due again. */
export async function requeueTemporaryFailures(db: Queryable, campaignId: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE campaign_sends SET state = 'pending', attempts = 0, due_at = now(), retried = true, temporary_failure = false, updated_at = now()
      WHERE campaign_id = $1 AND state = 'failed_permanent' AND temporary_failure AND NOT retried`,
    [campaignId],
  );
  return rowCount ?? 0;
}

export type RecipientOutcome = 'sent' | 'failed' | 'skipped' | 'pending';

export interface CampaignRecipient {
  contact_id: number;
  email: string | null;
  outcome: RecipientOutcome;
  reason: string | null;
  smtp_response: string | null;
  attempts: number;
  message_id: string;
  retried: boolean;
  sent_at: Date | null;
  updated_at: Date;
}

/** Per-recipient outcomes, a page at a time (keyset on the ledger id), optionally one outcome only. */
export async function listCampaignRecipients(
  db: Queryable,
  filter: { accountId: number; campaignId: number; outcome?: RecipientOutcome | undefined; afterId: number; limit: number },
): Promise<Array<CampaignRecipient & { id: number }>> {
  const states: Record<RecipientOutcome, string[]> = {
    sent: ['sent'],
    failed: ['failed_permanent'],
    skipped: ['skipped'],
    pending: ['pending', 'claimed', 'failed_transient'],
  };
  const { rows } = await db.query<CampaignRecipient & { id: number }>(
    `SELECT s.id, s.contact_id, c.email,
            CASE WHEN s.state = 'sent' THEN 'sent' WHEN s.state = 'failed_permanent' THEN 'failed'
                 WHEN s.state = 'skipped' THEN 'skipped' ELSE 'pending' END AS outcome,
            s.reason, s.smtp_response, s.attempts, s.message_id, s.retried, s.sent_at, s.updated_at
       FROM campaign_sends s
       LEFT JOIN contacts c ON c.account_id = s.account_id AND c.contact_id = s.contact_id
      WHERE s.campaign_id = $1 AND s.account_id = $2 AND s.id > $3 AND ($4::text[] IS NULL OR s.state = ANY($4::text[]))
      ORDER BY s.id LIMIT $5`,
    [filter.campaignId, filter.accountId, filter.afterId, filter.outcome ? states[filter.outcome] : null, filter.limit],
  );
  return rows;
}
