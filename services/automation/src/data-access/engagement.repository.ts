import type { PoolClient } from '@mailer/shared';

/** Which ledger an email's row is in: `sends` (workflow emails) or `campaign_sends`. */
export type Ledger = 'workflow' | 'campaign';

export interface LedgerHit {
  kind: 'open' | 'click';
  machine: boolean;
  accountId: number;
  contactId: number;
  occurredAt: string;
  /** The email: a campaign, or a workflow's step. */
  campaignId?: number | undefined;
  workflowId?: number | undefined;
  stepId?: string | undefined;
}

/**
 * What one hit changes on its ledger row (found by the ledger's unique key): a machine's hit only
 * machine_hits; a reader's open its opens and first open, a reader's click its clicks, first click
 * and first open (a click implies an open). "First" is the earliest, whatever order hits arrive
 * in. The row's id, or undefined when there is no such email (a forged-looking or deleted one).
 */
export async function recordLedgerHit(db: PoolClient, hit: LedgerHit): Promise<{ ledger: Ledger; id: number } | undefined> {
  const ledger: Ledger = hit.campaignId !== undefined ? 'campaign' : 'workflow';
  const set = `machine_hits = machine_hits + CASE WHEN $1 THEN 1 ELSE 0 END,
               opens = opens + CASE WHEN NOT $1 AND $2 = 'open' THEN 1 ELSE 0 END,
               clicks = clicks + CASE WHEN NOT $1 AND $2 = 'click' THEN 1 ELSE 0 END,
               first_opened_at = CASE WHEN $1 THEN first_opened_at ELSE least(first_opened_at, $3::timestamptz) END,
               first_clicked_at = CASE WHEN NOT $1 AND $2 = 'click' THEN least(first_clicked_at, $3::timestamptz) ELSE first_clicked_at END`;
  const { rows } =
    ledger === 'campaign'
      ? await db.query<{ id: string }>({
          name: 'automation.record-campaign-hit',
          text: `UPDATE campaign_sends SET ${set} WHERE campaign_id = $4 AND contact_id = $5 AND account_id = $6 RETURNING id`,
          values: [hit.machine, hit.kind, hit.occurredAt, hit.campaignId, hit.contactId, hit.accountId],
        })
      : await db.query<{ id: string }>({
          name: 'automation.record-workflow-hit',
          text: `UPDATE sends SET ${set} WHERE account_id = $6 AND contact_id = $5 AND workflow_id = $4 AND step_id = $7 RETURNING id`,
          values: [hit.machine, hit.kind, hit.occurredAt, hit.workflowId ?? 0, hit.contactId, hit.accountId, hit.stepId ?? ''],
        });
  return rows[0] ? { ledger, id: Number(rows[0].id) } : undefined;
}

/** A reader's click on one link of one email: its count, and when it was first followed. */
export async function countLinkClick(db: PoolClient, ledger: Ledger, sendId: number, url: string, occurredAt: string): Promise<void> {
  await db.query({
    name: 'automation.count-link-click',
    text: `INSERT INTO send_link_clicks (ledger, send_id, url, clicks, first_at) VALUES ($1, $2, $3, 1, $4)
           ON CONFLICT (ledger, send_id, url) DO UPDATE
             SET clicks = send_link_clicks.clicks + 1, first_at = least(send_link_clicks.first_at, EXCLUDED.first_at)`,
    values: [ledger, sendId, url, occurredAt],
  });
}

/** The contact unsubscribed through this workflow email's link: its step's figures count it (once). */
export async function markStepUnsubscribe(db: PoolClient, email: { accountId: number; contactId: number; workflowId: number; stepId: string }): Promise<void> {
  await db.query(
    `UPDATE sends SET unsubscribed_at = now()
      WHERE account_id = $1 AND contact_id = $2 AND workflow_id = $3 AND step_id = $4 AND unsubscribed_at IS NULL`,
    [email.accountId, email.contactId, email.workflowId, email.stepId],
  );
}
