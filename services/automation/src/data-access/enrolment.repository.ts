import { currentTraceparent, type PoolClient } from '@mailer/shared';
import type { ClaimedSend } from './sends.repository';

export interface Enrolment {
  accountId: number;
  contactId: number;
  email: string;
  workflowId: number;
  eventId: string;
  eventName: string;
  properties: Record<string, unknown>;
  /** The workflow's first email step, if it has one. */
  firstStep?: { stepId: string; stepIndex: number; messageId: string; delayMs: number } | undefined;
  /** Claim the first step for this scheduler instance at once (it sends right after commit). */
  claimFor?: { instance: string; leaseMs: number } | undefined;
}

export interface EnrolmentResult {
  /** Undefined when the contact was enrolled in this workflow before (nothing else was written). */
  runId: number | undefined;
  /** The first step's ledger row when it was claimed for `claimFor.instance`. */
  claimed: ClaimedSend | undefined;
}

interface EnrolmentRow {
  run_id: number | null;
  id: number | null;
  step_id: string | null;
  step_index: number | null;
  message_id: string | null;
  attempts: number | null;
  state: string | null;
  trace_context: string | null;
}

/**
 * Enrols the contact once, writes the first step's ledger row (pending, or already claimed with a
 * lease when the caller will send it right away) and the log line ("enrolled" or
 * "already_enrolled"), in one statement: one round trip inside the event's transaction.
 */
export async function enrolContact(client: PoolClient, enrolment: Enrolment): Promise<EnrolmentResult> {
  const step = enrolment.firstStep;
  const claim = enrolment.claimFor;
  const { rows } = await client.query<EnrolmentRow>({
    name: 'automation.enrol-contact',
    text: `WITH run AS (
       INSERT INTO workflow_runs (account_id, contact_id, workflow_id, event_id, event_name, event_properties)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ON CONSTRAINT workflow_runs_once_key DO NOTHING
       RETURNING id),
     step AS (
       INSERT INTO sends (run_id, account_id, contact_id, workflow_id, step_id, step_index, message_id, due_at, trace_context,
                          state, attempts, claimed_by, lease_until)
       SELECT run.id, $1, $2, $3, $8::text, $9::int, $10::text, now() + $11::float8 * interval '1 millisecond', $12::text,
              CASE WHEN $13::text IS NULL THEN 'pending' ELSE 'claimed' END,
              CASE WHEN $13::text IS NULL THEN 0 ELSE 1 END,
              $13::text,
              CASE WHEN $13::text IS NULL THEN NULL ELSE now() + $14::float8 * interval '1 millisecond' END
         FROM run
        WHERE $8::text IS NOT NULL
       ON CONFLICT ON CONSTRAINT sends_once_key DO NOTHING
       RETURNING id, step_id, step_index, message_id, attempts, state, trace_context),
     logged AS (
       INSERT INTO delivery_log (account_id, contact_id, email, workflow_id, event_id, outcome, reason)
       SELECT $1, $2, $7, $3, $4,
              CASE WHEN run.id IS NULL THEN 'already_enrolled' ELSE 'enrolled' END,
              CASE WHEN run.id IS NULL THEN 'each step is sent once per contact' END
         FROM (SELECT 1) AS one LEFT JOIN run ON true)
     SELECT run.id AS run_id, step.*
       FROM (SELECT 1) AS one LEFT JOIN run ON true LEFT JOIN step ON true`,
    values: [
      enrolment.accountId,
      enrolment.contactId,
      enrolment.workflowId,
      enrolment.eventId,
      enrolment.eventName,
      JSON.stringify(enrolment.properties),
      enrolment.email,
      step?.stepId ?? null,
      step?.stepIndex ?? null,
      step?.messageId ?? null,
      step?.delayMs ?? 0,
      currentTraceparent(),
      claim?.instance ?? null,
      claim?.leaseMs ?? 0,
    ],
  });
  const row = rows[0];
  const runId = row?.run_id ?? undefined;
  if (runId === undefined || !row || row.id === null || row.state !== 'claimed') return { runId, claimed: undefined };
  return {
    runId,
    claimed: {
      id: row.id,
      run_id: runId,
      account_id: enrolment.accountId,
      contact_id: enrolment.contactId,
      workflow_id: enrolment.workflowId,
      step_id: row.step_id!,
      step_index: row.step_index!,
      message_id: row.message_id!,
      attempts: row.attempts!,
      previous_state: 'pending',
      trace_context: row.trace_context,
    },
  };
}
