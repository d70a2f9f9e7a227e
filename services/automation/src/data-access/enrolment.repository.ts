import { columnsOf, currentTraceparent, type ContactSnapshot, type Pool } from '@mailer/shared';
import { findContact, PROJECTED_COLUMNS, type ProjectedContact } from './contacts.repository';
import { triggeredFingerprintSql } from './workflows.repository';
import type { ClaimedSend } from './sends.repository';

/**
 * The channel an enrolment notifies when it leaves a first email due now unclaimed (the enrolling
 * instance had no room for it): every automation instance LISTENs, so one with room claims it at
 * once instead of at its next poll.
 */
export const SENDS_DUE_CHANNEL = 'automation_sends_due';

/** A workflow the event matched, and how its first email step is written. */
export interface MatchedWorkflow {
  workflowId: number;
  /** The first email step, if the workflow has one. */
  firstStep?: { stepId: string; stepIndex: number; messageId: string; delayMs: number } | undefined;
  /** Claim the first step for this scheduler instance at once (it is sent right after commit). */
  claimFor?: string | undefined;
}

export interface EventEnrolment {
  /** The inbox key: a redelivered message changes nothing. */
  messageId: string;
  accountId: number;
  contact: ContactSnapshot;
  /** The snapshot's time; an older snapshot never overwrites a newer fact. */
  factAt: string;
  eventId: string;
  eventName: string;
  properties: Record<string, unknown>;
  matched: MatchedWorkflow[];
  notMatched: Array<{ workflowId: number; reason: string }>;
  /**
   * The fingerprint of the workflows matched against (`TriggeredWorkflows`); none for an enrolment
   * the caller decided without them (the confirmation email's own workflow).
   */
  workflowsFingerprint?: string[];
  leaseMs: number;
}

export interface EventEnrolmentResult {
  /**
   * The event's workflows changed since they were read (nothing was written): match against the
   * workflows as they stand now and enrol again.
   */
  stale: boolean;
  /** False when the message was applied before (nothing was written). */
  fresh: boolean;
  /** The projection as it stands after the snapshot (or the newer state that won). */
  contact: ProjectedContact | undefined;
  /** Workflow ids the contact was newly enrolled in. */
  enrolled: number[];
  /** First steps claimed for the caller. */
  claimed: ClaimedSend[];
}

interface ClaimedRow {
  id: number;
  run_id: number;
  workflow_id: number;
  step_id: string;
  step_index: number;
  message_id: string;
  attempts: number;
  trace_context: string | null;
}

interface EnrolmentRow {
  stale: boolean;
  fresh: boolean;
  contact: ProjectedContact | null;
  enrolled: number[] | null;
  claimed: ClaimedRow[] | null;
}

/**
 * Everything one enriched product event writes, as one statement (one round trip, atomic without
 * BEGIN/COMMIT), provided the event's workflows are still the ones matched against (else nothing is
 * written and the result says `stale`): the inbox row; then, only if it is new, the contact snapshot (unless a newer fact
 * won), one run per matched workflow (at most once per contact, ever), each new run's first ledger
 * row (pending, or claimed with a lease for an immediate send), and the log lines (enrolled,
 * already_enrolled, not_matched).
 */
export async function enrolFromEvent(pool: Pool, input: EventEnrolment): Promise<EventEnrolmentResult> {
  const { contact, matched } = input;
  const { rows } = await pool.query<EnrolmentRow>({
    name: 'automation.enrol-from-event',
    text: `WITH current AS (
       SELECT CASE WHEN $26::text[] IS NULL THEN true ELSE ${triggeredFingerprintSql('$2', '$13')} = $26::text[] END AS matches),
     inbox AS (
       INSERT INTO processed_messages (message_id) SELECT $1 WHERE (SELECT matches FROM current)
       ON CONFLICT (message_id) DO NOTHING RETURNING 1),
     applied AS (
       INSERT INTO contacts (account_id, contact_id, email, first_name, last_name, subscribed, bounced, deleted, tags, custom_properties, fact_at, suppression)
       SELECT $2::bigint, $3::bigint, $4::text, $5::text, $6::text, $7::boolean, $8::boolean, false, $9::jsonb, $10::jsonb, $11::timestamptz, $25::text FROM inbox
       ON CONFLICT (account_id, contact_id) DO UPDATE
         SET email = EXCLUDED.email, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
             subscribed = EXCLUDED.subscribed, bounced = EXCLUDED.bounced, deleted = false, tags = EXCLUDED.tags,
             suppression = EXCLUDED.suppression,
             custom_properties = EXCLUDED.custom_properties, fact_at = EXCLUDED.fact_at, updated_at = now()
         WHERE contacts.fact_at <= EXCLUDED.fact_at
       RETURNING ${PROJECTED_COLUMNS}),
     projected AS (
       SELECT ${PROJECTED_COLUMNS} FROM applied
       UNION ALL
       SELECT ${PROJECTED_COLUMNS} FROM contacts WHERE account_id = $2 AND contact_id = $3 AND NOT EXISTS (SELECT 1 FROM applied)),
     matched AS (
       SELECT m.* FROM unnest($15::bigint[], $16::text[], $17::int[], $18::text[], $19::float8[], $20::text[])
                  AS m (workflow_id, step_id, step_index, message_id, delay_ms, claimed_by)
        WHERE EXISTS (SELECT 1 FROM inbox)),
     runs AS (
       INSERT INTO workflow_runs (account_id, contact_id, workflow_id, event_id, event_name, event_properties)
       SELECT $2::bigint, $3::bigint, workflow_id, $12::text, $13::text, $14::jsonb FROM matched
       ON CONFLICT ON CONSTRAINT workflow_runs_once_key DO NOTHING
       RETURNING id, workflow_id),
     steps AS (
       INSERT INTO sends (run_id, account_id, contact_id, workflow_id, step_id, step_index, message_id, due_at, trace_context,
                          state, attempts, claimed_by, lease_until, claimed_at)
       SELECT runs.id, $2, $3, m.workflow_id, m.step_id, m.step_index, m.message_id,
              now() + m.delay_ms * interval '1 millisecond', $21::text,
              CASE WHEN m.claimed_by IS NULL THEN 'pending' ELSE 'claimed' END,
              CASE WHEN m.claimed_by IS NULL THEN 0 ELSE 1 END,
              m.claimed_by,
              CASE WHEN m.claimed_by IS NULL THEN NULL ELSE now() + $22::float8 * interval '1 millisecond' END,
              CASE WHEN m.claimed_by IS NULL THEN NULL ELSE now() END
         FROM runs JOIN matched m ON m.workflow_id = runs.workflow_id
        WHERE m.step_id IS NOT NULL
       ON CONFLICT ON CONSTRAINT sends_once_key DO NOTHING
       RETURNING id, run_id, workflow_id, step_id, step_index, message_id, attempts, state, trace_context, due_at <= now() AS due_now),
     woken AS (
       -- A first email due now that no instance claimed: every scheduler hears it at commit.
       SELECT pg_notify('${SENDS_DUE_CHANNEL}', '') FROM steps WHERE state = 'pending' AND due_now LIMIT 1),
     logged AS (
       INSERT INTO delivery_log (account_id, contact_id, email, workflow_id, event_id, outcome, reason)
       SELECT $2, $3, $4, m.workflow_id, $12,
              CASE WHEN runs.id IS NULL THEN 'already_enrolled' ELSE 'enrolled' END,
              CASE WHEN runs.id IS NULL THEN 'each step is sent once per contact' END
         FROM matched m LEFT JOIN runs ON runs.workflow_id = m.workflow_id
       UNION ALL
       SELECT $2, $3, $4, n.workflow_id, $12, 'not_matched', n.reason
         FROM unnest($23::bigint[], $24::text[]) AS n (workflow_id, reason)
        WHERE EXISTS (SELECT 1 FROM inbox))
     SELECT NOT (SELECT matches FROM current) AS stale,
            EXISTS (SELECT 1 FROM inbox) AS fresh,
            (SELECT row_to_json(projected) FROM projected LIMIT 1) AS contact,
            (SELECT array_agg(workflow_id) FROM runs) AS enrolled,
            (SELECT json_agg(steps) FROM steps WHERE state = 'claimed') AS claimed,
            -- Read so that the notifying CTE runs (a plain SELECT in WITH runs only when referenced).
            (SELECT count(*) FROM woken) AS woken`,
    values: [
      input.messageId,
      input.accountId,
      contact.id,
      contact.email,
      contact.first_name,
      contact.last_name,
      contact.subscribed,
      contact.bounced,
      JSON.stringify(contact.tags),
      JSON.stringify(contact.custom_properties),
      input.factAt,
      input.eventId,
      input.eventName,
      JSON.stringify(input.properties),
      ...columnsOf(matched, [
        (m) => m.workflowId,
        (m) => m.firstStep?.stepId ?? null,
        (m) => m.firstStep?.stepIndex ?? null,
        (m) => m.firstStep?.messageId ?? null,
        (m) => m.firstStep?.delayMs ?? 0,
        (m) => (m.firstStep?.delayMs === 0 ? (m.claimFor ?? null) : null),
      ]),
      currentTraceparent(),
      input.leaseMs,
      ...columnsOf(input.notMatched, [(n) => n.workflowId, (n) => n.reason]),
      contact.suppression ?? null,
      input.workflowsFingerprint ?? null,
    ],
  });
  const row = rows[0];
  if (!row?.fresh) return { stale: row?.stale ?? false, fresh: false, contact: undefined, enrolled: [], claimed: [] };
  return {
    stale: false,
    fresh: true,
    // Null only when a concurrent transaction inserted a newer row after this statement's snapshot.
    contact: row.contact ?? (await findContact(pool, input.accountId, contact.id)),
    enrolled: row.enrolled ?? [],
    claimed: (row.claimed ?? []).map((claimed) => ({
      id: claimed.id,
      run_id: claimed.run_id,
      account_id: input.accountId,
      contact_id: contact.id,
      workflow_id: claimed.workflow_id,
      step_id: claimed.step_id,
      step_index: claimed.step_index,
      message_id: claimed.message_id,
      attempts: claimed.attempts,
      previous_state: 'pending',
      trace_context: claimed.trace_context,
    })),
  };
}
