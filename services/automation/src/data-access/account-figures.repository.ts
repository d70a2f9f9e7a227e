import type { Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

export interface DailySends {
  day: string;
  sent: number;
  failed: number;
  skipped: number;
  /** Emails first opened that day by a reader (a click counts as an open). */
  opened: number;
  /** Emails first clicked that day by a reader. */
  clicked: number;
}

/**
 * Final outcomes per UTC day over the last `days` days (today included, empty days as zeros):
 * workflow sends from the delivery log, campaign sends from the campaign ledger, each read through
 * its (account, time) index; and the emails of both ledgers first opened and first clicked each
 * day (partial indexes holding only engaged rows).
 */
export async function dailySendOutcomes(db: Queryable, accountId: number, days: number): Promise<DailySends[]> {
  const { rows } = await db.query<{ day: string; sent: string; failed: string; skipped: string; opened: string; clicked: string }>(
    `WITH span AS (
       SELECT generate_series(date_trunc('day', now() AT TIME ZONE 'UTC') - ($2::int - 1) * interval '1 day',
                              date_trunc('day', now() AT TIME ZONE 'UTC'), interval '1 day') AS day
     ), since AS (SELECT (min(day) AT TIME ZONE 'UTC') AS at FROM span),
     outcomes AS (
       SELECT date_trunc('day', l.created_at AT TIME ZONE 'UTC') AS day,
              CASE l.outcome WHEN 'sent' THEN 'sent' WHEN 'skipped' THEN 'skipped' ELSE 'failed' END AS kind
         FROM delivery_log l, since
        WHERE l.account_id = $1 AND l.created_at >= since.at AND l.outcome IN ('sent', 'skipped', 'failed_permanent', 'bounced')
       UNION ALL
       SELECT date_trunc('day', s.updated_at AT TIME ZONE 'UTC'),
              CASE s.state WHEN 'failed_permanent' THEN 'failed' ELSE s.state END
         FROM campaign_sends s, since
        WHERE s.account_id = $1 AND s.updated_at >= since.at AND s.state IN ('sent', 'failed_permanent', 'skipped')
       UNION ALL
       SELECT date_trunc('day', s.first_opened_at AT TIME ZONE 'UTC'), 'opened' FROM sends s, since WHERE s.account_id = $1 AND s.first_opened_at >= since.at
       UNION ALL
       SELECT date_trunc('day', s.first_clicked_at AT TIME ZONE 'UTC'), 'clicked' FROM sends s, since WHERE s.account_id = $1 AND s.first_clicked_at >= since.at
       UNION ALL
       SELECT date_trunc('day', s.first_opened_at AT TIME ZONE 'UTC'), 'opened' FROM campaign_sends s, since WHERE s.account_id = $1 AND s.first_opened_at >= since.at
       UNION ALL
       SELECT date_trunc('day', s.first_clicked_at AT TIME ZONE 'UTC'), 'clicked' FROM campaign_sends s, since WHERE s.account_id = $1 AND s.first_clicked_at >= since.at
     )
     SELECT to_char(span.day, 'YYYY-MM-DD') AS day,
            count(o.kind) FILTER (WHERE o.kind = 'sent') AS sent,
            count(o.kind) FILTER (WHERE o.kind = 'failed') AS failed,
            count(o.kind) FILTER (WHERE o.kind = 'skipped') AS skipped,
            count(o.kind) FILTER (WHERE o.kind = 'opened') AS opened,
            count(o.kind) FILTER (WHERE o.kind = 'clicked') AS clicked
       FROM span LEFT JOIN outcomes o ON o.day = span.day
      GROUP BY span.day ORDER BY span.day`,
    [accountId, days],
  );
  return rows.map((row) => ({
    day: row.day,
    sent: Number(row.sent),
    failed: Number(row.failed),
    skipped: Number(row.skipped),
    opened: Number(row.opened),
    clicked: Number(row.clicked),
  }));
}

/** Enabled workflows, and campaigns whose delivery is under way (sending or paused). */
export async function workflowAndCampaignCounts(db: Queryable, accountId: number): Promise<{ workflowsActive: number; campaignsInFlight: number }> {
  const { rows } = await db.query<{ workflows: string; campaigns: string }>(
    `SELECT (SELECT count(*) FROM workflows WHERE account_id = $1 AND enabled) AS workflows,
            (SELECT count(*) FROM campaign_deliveries WHERE account_id = $1 AND state IN ('sending', 'paused')) AS campaigns`,
    [accountId],
  );
  return { workflowsActive: Number(rows[0]!.workflows), campaignsInFlight: Number(rows[0]!.campaigns) };
}

export interface ContactRun {
  id: number;
  workflow_id: number;
  workflow: string;
  event_name: string;
  event_id: string;
  started_at: Date;
  steps: Array<{ step_id: string; state: string; reason: string | null; due_at: string; sent_at: string | null }>;
}

/** A contact's workflow runs, newest first, each with its steps' ledger states (through the ledger's unique key). */
export async function contactRuns(db: Queryable, accountId: number, contactId: number, limit: number): Promise<ContactRun[]> {
  const { rows } = await db.query<ContactRun>(
    `SELECT r.id, r.workflow_id, w.name AS workflow, r.event_name, r.event_id, r.created_at AS started_at,
            coalesce((SELECT json_agg(json_build_object('step_id', s.step_id, 'state', s.state, 'reason', s.reason,
                                                        'due_at', s.due_at, 'sent_at', s.sent_at) ORDER BY s.step_index)
                        FROM sends s WHERE s.account_id = r.account_id AND s.contact_id = r.contact_id AND s.workflow_id = r.workflow_id), '[]'::json) AS steps
       FROM workflow_runs r JOIN workflows w ON w.id = r.workflow_id
      WHERE r.account_id = $1 AND r.contact_id = $2
      ORDER BY r.id DESC LIMIT $3`,
    [accountId, contactId, limit],
  );
  return rows;
}
