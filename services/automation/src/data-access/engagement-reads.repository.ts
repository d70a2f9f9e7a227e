import type { Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

/** Of the emails of one step sent in a period: how many contacts got one, opened, clicked, unsubscribed through it. */
export interface StepStats {
  sent: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
}

export interface StepFigures {
  step_id: string;
  last_7_days: StepStats;
  last_30_days: StepStats;
}

/**
 * Per step of a workflow, the emails sent in the last 7 and 30 days (one per contact and step, the
 * ledger's rule) and how many of them were opened (a click counts as an open), clicked by a
 * reader, or led to an unsubscribe through their link, whenever that happened. Steps with no email
 * sent in 30 days are absent. Read through the ledger's (workflow, sent_at) index.
 */
export async function workflowStepFigures(db: Queryable, accountId: number, workflowId: number): Promise<StepFigures[]> {
  const { rows } = await db.query<StepFigures>({
    name: 'automation.workflow-step-figures',
    text: `WITH recent AS (
             SELECT step_id, sent_at >= now() - interval '7 days' AS week, first_opened_at IS NOT NULL AS opened,
                    first_clicked_at IS NOT NULL AS clicked, unsubscribed_at IS NOT NULL AS unsubscribed
               FROM sends
              WHERE workflow_id = $2 AND state = 'sent' AND account_id = $1 AND sent_at >= now() - interval '30 days'
           )
           SELECT step_id,
                  json_build_object('sent', count(*) FILTER (WHERE week), 'opened', count(*) FILTER (WHERE week AND opened),
                                    'clicked', count(*) FILTER (WHERE week AND clicked), 'unsubscribed', count(*) FILTER (WHERE week AND unsubscribed)) AS last_7_days,
                  json_build_object('sent', count(*), 'opened', count(*) FILTER (WHERE opened),
                                    'clicked', count(*) FILTER (WHERE clicked), 'unsubscribed', count(*) FILTER (WHERE unsubscribed)) AS last_30_days
             FROM recent GROUP BY step_id`,
    values: [accountId, workflowId],
  });
  return rows;
}

export interface ContactEmail {
  kind: 'workflow' | 'campaign';
  workflow_id: number | null;
  workflow_name: string | null;
  step_id: string | null;
  campaign_id: number | null;
  subject: string | null;
  outcome: 'sent' | 'failed' | 'skipped' | 'pending';
  sent_at: Date | null;
  first_opened_at: Date | null;
  first_clicked_at: Date | null;
  clicks: number;
}

const outcomeOf = (state: string) => `CASE ${state} WHEN 'sent' THEN 'sent' WHEN 'failed_permanent' THEN 'failed' WHEN 'skipped' THEN 'skipped' ELSE 'pending' END`;

/**
 * The workflow and campaign emails of one contact, newest first (by when sent, else when last
 * changed): the subject as rendered for them, the outcome, first open and click, reader clicks.
 * Each ledger is read through its (account, contact) index.
 */
export async function contactEmails(db: Queryable, accountId: number, contactId: number, limit: number): Promise<ContactEmail[]> {
  const { rows } = await db.query<ContactEmail & { at: Date }>({
    name: 'automation.contact-emails',
    text: `(SELECT 'workflow' AS kind, s.workflow_id, w.name AS workflow_name, s.step_id, NULL::bigint AS campaign_id,
                   s.subject, ${outcomeOf('s.state')} AS outcome, s.sent_at, s.first_opened_at, s.first_clicked_at, s.clicks,
                   coalesce(s.sent_at, s.updated_at) AS at
              FROM sends s LEFT JOIN workflows w ON w.id = s.workflow_id
             WHERE s.account_id = $1 AND s.contact_id = $2 AND s.kind = 'email'
             ORDER BY at DESC LIMIT $3)
           UNION ALL
           (SELECT 'campaign', NULL, NULL, NULL, c.campaign_id, c.subject, ${outcomeOf('c.state')}, c.sent_at,
                   c.first_opened_at, c.first_clicked_at, c.clicks, coalesce(c.sent_at, c.updated_at)
              FROM campaign_sends c
             WHERE c.account_id = $1 AND c.contact_id = $2
             ORDER BY 12 DESC LIMIT $3)
           ORDER BY at DESC LIMIT $3`,
    values: [accountId, contactId, limit],
  });
  return rows.map(({ at: _order, ...email }) => email);
}
