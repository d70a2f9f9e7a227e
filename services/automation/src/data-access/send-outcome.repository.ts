import { randomUUID } from 'node:crypto';
import { currentTraceparent, type Pool, type PoolClient } from '@mailer/shared';
import type { LogOutcome } from './delivery-log.repository';
import type { OutboxFact } from './outbox.repository';
import type { ClaimedSend, SendOutcome } from './sends.repository';

export interface NextStepRow {
  stepId: string;
  stepIndex: number;
  messageId: string;
  delayMs: number;
}

export interface SendOutcomeRecord {
  send: ClaimedSend;
  outcome: SendOutcome;
  /** Facts for the outbox (email sent, contact bounced). */
  facts: OutboxFact[];
  /** The log line; its ids are the send's. */
  log: { outcome: LogOutcome; email: string | undefined; reason: string | undefined };
  /** The run's next email step, when this one is done. */
  next: NextStepRow | undefined;
  /** A 5xx at RCPT: the projection marks the contact bounced at once. */
  markBounced: boolean;
}

/**
 * Everything a finished attempt changes, in one statement (one round trip, one commit): the
 * outcome, fenced by the attempt number so only the current claimant records it; then, only if it
 * did, the outbox facts, the log line, the bounce flag and the next step's ledger row. False when
 * the claim was lost to another instance meanwhile (nothing is written then).
 */
export async function recordSendOutcome(db: Pool | PoolClient, record: SendOutcomeRecord): Promise<boolean> {
  const { send, outcome, facts, log, next } = record;
  const { rows } = await db.query<{ recorded: number }>({
    name: 'automation.record-send-outcome',
    text: `WITH outcome AS (
       UPDATE sends
          SET state = $3, reason = $4, last_error = coalesce($5, last_error), smtp_response = coalesce($6, smtp_response),
              sent_at = CASE WHEN $3 = 'sent' THEN now() ELSE sent_at END,
              due_at = CASE WHEN $3 = 'failed_transient' THEN now() + $7::float8 * interval '1 millisecond' ELSE due_at END,
              claimed_by = NULL, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND state = 'claimed' AND attempts = $2
       RETURNING id),
     facts AS (
       INSERT INTO outbox (message_id, type, payload, trace_context)
       SELECT fact.message_id, fact.type, fact.payload, $8
         FROM outcome, unnest($9::uuid[], $10::text[], $11::jsonb[]) AS fact (message_id, type, payload)),
     logged AS (
       INSERT INTO delivery_log (account_id, contact_id, email, workflow_id, step_id, outcome, reason, message_id)
       SELECT $12, $13, $14, $15, $16, $17, $18, $19 FROM outcome),
     bounced AS (
       UPDATE contacts SET bounced = true, fact_at = greatest(fact_at, now()), updated_at = now()
        WHERE $20::boolean AND account_id = $12 AND contact_id = $13 AND EXISTS (SELECT 1 FROM outcome)),
     next_step AS (
       INSERT INTO sends (run_id, account_id, contact_id, workflow_id, step_id, step_index, message_id, due_at, trace_context)
       SELECT $21, $12, $13, $15, $22::text, $23::int, $24::text, now() + $25::float8 * interval '1 millisecond', $8
         FROM outcome
        WHERE $22::text IS NOT NULL
       ON CONFLICT ON CONSTRAINT sends_once_key DO NOTHING)
     SELECT count(*)::int AS recorded FROM outcome`,
    values: [
      send.id,
      send.attempts,
      outcome.state,
      outcome.reason ?? null,
      outcome.error ?? null,
      outcome.smtpResponse ?? null,
      outcome.retryInMs ?? 0,
      currentTraceparent(),
      facts.map(() => randomUUID()),
      facts.map((fact) => fact.type),
      facts.map((fact) => JSON.stringify(fact.payload)),
      send.account_id,
      send.contact_id,
      log.email ?? null,
      send.workflow_id,
      send.step_id,
      log.outcome,
      log.reason ?? null,
      send.message_id,
      record.markBounced,
      send.run_id,
      next?.stepId ?? null,
      next?.stepIndex ?? null,
      next?.messageId ?? null,
      next?.delayMs ?? 0,
    ],
  });
  return rows[0]?.recorded === 1;
}
