import type { Pool } from '@mailer/shared';

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
