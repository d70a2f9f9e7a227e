import { randomUUID } from 'node:crypto';
import { columnsOf, type Pool, type PoolClient } from '@mailer/shared';
import type { LogOutcome } from './delivery-log.repository';
import type { OutboxFact } from './outbox.repository';
import type { ClaimedSend, SendOutcome } from './sends.repository';

export interface NextStepRow {
  stepId: string;
  stepIndex: number;
  kind: 'email' | 'branch';
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
  /** The subject as rendered for the contact; null when nothing was rendered (a skip, a render failure). */
  subject: string | null;
}

/** A record with the trace context of the caller that made it (a batch is written from another). */
export interface TracedSendOutcomeRecord extends SendOutcomeRecord {
  traceparent: string | null;
}

/**
 * Everything finished attempts change, many in one statement (one round trip, one commit): each
 * outcome fenced by its own attempt number, so only the current claimant records it; then, only for
 * those recorded, their outbox facts, log line, bounce flag and next step's ledger row. Facts and log lines keep the records' order. Answers, in the
 * records' order, whether each was recorded.
 */
export async function recordSendOutcomes(db: Pool | PoolClient, records: TracedSendOutcomeRecord[]): Promise<boolean[]> {
  const facts = records.flatMap((record, index) => record.facts.map((fact) => ({ n: index + 1, fact })));
  const { rows } = await db.query<{ id: string }>({
    name: 'automation.record-send-outcomes',
    text: `WITH input AS (
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[],
                            $9::bigint[], $10::bigint[], $11::text[], $12::bigint[], $13::text[], $14::text[], $15::text[],
                            $16::text[], $17::boolean[], $18::bigint[], $19::text[], $20::int[], $21::text[], $22::float8[], $27::text[], $28::text[])
         WITH ORDINALITY AS i (id, attempts, state, reason, error, smtp_response, retry_ms, trace, account_id, contact_id, email,
                               workflow_id, step_id, log_outcome, log_reason, message_id, bounced, run_id, next_step, next_index,
                               next_message, next_delay, subject, next_kind, n)),
     outcome AS (
       UPDATE sends s
          SET state = i.state, reason = i.reason, subject = coalesce(i.subject, s.subject), last_error = coalesce(i.error, s.last_error), smtp_response = coalesce(i.smtp_response, s.smtp_response),
              sent_at = CASE WHEN i.state = 'sent' THEN now() ELSE s.sent_at END,
              due_at = CASE WHEN i.state = 'failed_transient' THEN now() + i.retry_ms * interval '1 millisecond' ELSE s.due_at END,
              claimed_by = NULL, lease_until = NULL, updated_at = now()
         FROM input i
        WHERE s.id = i.id AND s.state = 'claimed' AND s.attempts = i.attempts
       RETURNING s.id),
     recorded AS (
       SELECT i.* FROM input i WHERE i.id IN (SELECT id FROM outcome)),
     facts AS (
       INSERT INTO outbox (message_id, type, payload, trace_context)
       SELECT f.message_id, f.type, f.payload, r.trace
         FROM unnest($23::int[], $24::uuid[], $25::text[], $26::jsonb[]) WITH ORDINALITY AS f (n, message_id, type, payload, k)
         JOIN recorded r ON r.n = f.n
        ORDER BY f.k),
     logged AS (
       INSERT INTO delivery_log (account_id, contact_id, email, workflow_id, step_id, outcome, reason, message_id)
       SELECT account_id, contact_id, email, workflow_id, step_id, log_outcome, log_reason, message_id FROM recorded ORDER BY n),
     bounced AS (
       UPDATE contacts c SET bounced = true, fact_at = greatest(c.fact_at, now()), updated_at = now()
         FROM recorded r WHERE r.bounced AND c.account_id = r.account_id AND c.contact_id = r.contact_id),
     next_step AS (
       INSERT INTO sends (run_id, account_id, contact_id, workflow_id, step_id, step_index, kind, message_id, due_at, trace_context)
       SELECT run_id, account_id, contact_id, workflow_id, next_step, next_index, next_kind, next_message,
              now() + next_delay * interval '1 millisecond', trace
         FROM recorded WHERE next_step IS NOT NULL
       ON CONFLICT ON CONSTRAINT sends_once_key DO NOTHING)
     SELECT id FROM outcome`,
    values: [
      ...columnsOf<TracedSendOutcomeRecord>(records, [
        (r) => r.send.id,
        (r) => r.send.attempts,
        (r) => r.outcome.state,
        (r) => r.outcome.reason ?? null,
        (r) => r.outcome.error ?? null,
        (r) => r.outcome.smtpResponse ?? null,
        (r) => r.outcome.retryInMs ?? 0,
        (r) => r.traceparent,
        (r) => r.send.account_id,
        (r) => r.send.contact_id,
        (r) => r.log.email ?? null,
        (r) => r.send.workflow_id,
        (r) => r.send.step_id,
        (r) => r.log.outcome,
        (r) => r.log.reason ?? null,
        (r) => r.send.message_id,
        (r) => r.markBounced,
        (r) => r.send.run_id,
        (r) => r.next?.stepId ?? null,
        (r) => r.next?.stepIndex ?? null,
        (r) => r.next?.messageId ?? null,
        (r) => r.next?.delayMs ?? 0,
      ]),
      ...columnsOf(facts, [(entry) => entry.n, () => randomUUID(), (entry) => entry.fact.type, (entry) => JSON.stringify(entry.fact.payload)]),
      records.map((r) => r.subject),
      records.map((r) => r.next?.kind ?? null),
    ],
  });
  const recorded = new Set(rows.map((row) => Number(row.id)));
  return records.map((record) => recorded.has(Number(record.send.id)));
}
