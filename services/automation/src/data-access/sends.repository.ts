import { currentTraceparent, type Pool, type PoolClient } from '@mailer/shared';

type Queryable = Pool | PoolClient;

export type SendState = 'pending' | 'claimed' | 'sent' | 'failed_transient' | 'failed_permanent' | 'skipped';

export interface ClaimedSend {
  id: number;
  run_id: number;
  account_id: number;
  contact_id: number;
  workflow_id: number;
  step_id: string;
  step_index: number;
  message_id: string;
  /** Also the fencing token: only the holder of this attempt may record the outcome. */
  attempts: number;
  /** 'claimed' when this claim took over an expired lease (a crashed or stalled instance). */
  previous_state: SendState;
  /** The traceparent of the work that scheduled the step (a delayed send continues its trace). */
  trace_context: string | null;
}

/** Writes a step's ledger row, due at `dueAt`; nothing when the step already has one (dedupe). */
export async function scheduleStep(
  client: Queryable,
  step: { runId: number; accountId: number; contactId: number; workflowId: number; stepId: string; stepIndex: number; messageId: string; delayMs: number },
): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO sends (run_id, account_id, contact_id, workflow_id, step_id, step_index, message_id, due_at, trace_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 millisecond', $9)
     ON CONFLICT ON CONSTRAINT sends_once_key DO NOTHING`,
    [step.runId, step.accountId, step.contactId, step.workflowId, step.stepId, step.stepIndex, step.messageId, step.delayMs, currentTraceparent()],
  );
  return rowCount === 1;
}

/**
 * Claims up to `limit` due rows for `instance`: pending or retrying rows whose time has come, and
 * claims whose lease expired. SKIP LOCKED lets any number of instances claim side by side; each row
 * goes to exactly one of them.
 */
export async function claimDueSends(pool: Pool, instance: string, limit: number, leaseMs: number): Promise<ClaimedSend[]> {
  const { rows } = await pool.query<ClaimedSend>(
    `UPDATE sends s
        SET state = 'claimed', attempts = s.attempts + 1, claimed_by = $1,
            lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
       FROM (SELECT id, state AS previous_state FROM sends
              WHERE (state IN ('pending', 'failed_transient') AND due_at <= now())
                 OR (state = 'claimed' AND lease_until < now())
              ORDER BY due_at
              LIMIT $3
              FOR UPDATE SKIP LOCKED) due
      WHERE s.id = due.id
  RETURNING s.id, s.run_id, s.account_id, s.contact_id, s.workflow_id, s.step_id, s.step_index, s.message_id, s.attempts,
            due.previous_state, s.trace_context`,
    [instance, leaseMs, limit],
  );
  return rows;
}

export interface SendOutcome {
  state: Exclude<SendState, 'pending' | 'claimed'>;
  reason?: string | undefined;
  error?: string | undefined;
  smtpResponse?: string | undefined;
  /** For failed_transient: when to try again. */
  retryInMs?: number | undefined;
}

/** Records the outcome if `attempt` still holds the claim; false when the lease was lost meanwhile. */
export async function recordOutcome(client: PoolClient, send: ClaimedSend, outcome: SendOutcome): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE sends
        SET state = $3, reason = $4, last_error = coalesce($5, last_error), smtp_response = coalesce($6, smtp_response),
            sent_at = CASE WHEN $3 = 'sent' THEN now() ELSE sent_at END,
            due_at = CASE WHEN $3 = 'failed_transient' THEN now() + $7 * interval '1 millisecond' ELSE due_at END,
            claimed_by = NULL, lease_until = NULL, updated_at = now()
      WHERE id = $1 AND state = 'claimed' AND attempts = $2`,
    [send.id, send.attempts, outcome.state, outcome.reason ?? null, outcome.error ?? null, outcome.smtpResponse ?? null, outcome.retryInMs ?? 0],
  );
  return rowCount === 1;
}
