import type { Pool, PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

export type LogOutcome =
  | 'enrolled'
  | 'not_matched'
  | 'already_enrolled'
  | 'sent'
  | 'skipped'
  | 'retry_scheduled'
  | 'failed_permanent'
  | 'bounced'
  | 'reconciled'
  | 'unsubscribed'
  | 'confirmed'
  /** A branch step decided; the reason names the side (`then: clicked "welcome" within 2d`). */
  | 'branched';

export interface LogEntry {
  accountId: number;
  contactId?: number | undefined;
  email?: string | undefined;
  workflowId?: number | undefined;
  stepId?: string | undefined;
  eventId?: string | undefined;
  outcome: LogOutcome;
  reason?: string | undefined;
  messageId?: string | undefined;
}

export async function recordDelivery(client: Queryable, entry: LogEntry): Promise<void> {
  await client.query(
    `INSERT INTO delivery_log (account_id, contact_id, email, workflow_id, step_id, event_id, outcome, reason, message_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      entry.accountId,
      entry.contactId ?? null,
      entry.email ?? null,
      entry.workflowId ?? null,
      entry.stepId ?? null,
      entry.eventId ?? null,
      entry.outcome,
      entry.reason ?? null,
      entry.messageId ?? null,
    ],
  );
}

export interface DeliveryLogRow {
  id: number;
  contact_id: number | null;
  email: string | null;
  workflow: string | null;
  step_id: string | null;
  event_id: string | null;
  outcome: LogOutcome;
  reason: string | null;
  message_id: string | null;
  created_at: Date;
}

/** Everything that happened to one contact (by id or email), oldest first: "why (not) this email?". */
export async function deliveryHistory(client: Queryable, accountId: number, contact: { id?: number; email?: string }): Promise<DeliveryLogRow[]> {
  const { rows } = await client.query<DeliveryLogRow>(
    `SELECT l.id, l.contact_id, l.email, w.name AS workflow, l.step_id, l.event_id, l.outcome, l.reason, l.message_id, l.created_at
       FROM delivery_log l LEFT JOIN workflows w ON w.id = l.workflow_id
      WHERE l.account_id = $1
        AND (l.contact_id = $2 OR lower(l.email) = lower($3)
             OR l.contact_id IN (SELECT contact_id FROM contacts WHERE account_id = $1 AND lower(email) = lower($3)))
      ORDER BY l.id`,
    [accountId, contact.id ?? null, contact.email ?? null],
  );
  return rows;
}
