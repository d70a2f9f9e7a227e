import type { Pool } from '@mailer/shared';
import type { ProjectedContact } from './contacts.repository';

/** `waiting` and `branched` are a branch step's: waiting for a click until `due_at`, then decided. */
export type SendState = 'pending' | 'claimed' | 'sent' | 'failed_transient' | 'failed_permanent' | 'skipped' | 'waiting' | 'branched';

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
  /** Where the path the run took at its last branch ends (a step id; workflow_runs.stop_before). Absent or null: the end of the steps. */
  stop_before?: string | null;
}

/** A claimed row with what sending it needs, read by the claim itself. */
export interface ClaimedSendWithContext extends ClaimedSend {
  /** The contacts projection row, or null when automation never learned of the contact. */
  contact: ProjectedContact | null;
  event_name: string | null;
  event_properties: Record<string, unknown> | null;
  /** The workflow's version, to use a cached definition; null when the workflow is gone. */
  workflow_updated_at: Date | null;
}

/**
 * Claims up to `limit` due rows for `instance`: pending or retrying rows whose time has come,
 * claims whose lease expired, and branch steps whose wait for a click ended. SKIP LOCKED lets any
 * number of instances claim side by side; each row goes to exactly one of them. The same statement reads each row's contact, event and workflow
 * version, so a send needs no further reads (suppression is as fresh as the claim).
 */
export async function claimDueSends(pool: Pool, instance: string, limit: number, leaseMs: number): Promise<ClaimedSendWithContext[]> {
  const { rows } = await pool.query<ClaimedSendWithContext>({
    name: 'automation.claim-due-sends',
    // Lapsed leases, due rows and branches done waiting are found by ordered scans of their own
    // partial indexes, each stopped at the limit. As one `OR` they were planned as a scan of every pending row and a sort
    // (2 ms a claim with 10k due, paid again by every claim of a backlog).
    text: `WITH lapsed AS (
             SELECT id, state, run_id, workflow_id, account_id, contact_id FROM sends
              WHERE state = 'claimed' AND lease_until < now()
              ORDER BY lease_until
              LIMIT $3
              FOR UPDATE SKIP LOCKED
           ), due AS (
             SELECT id, state, run_id, workflow_id, account_id, contact_id FROM sends
              WHERE state IN ('pending', 'failed_transient') AND due_at <= now()
              ORDER BY due_at
              LIMIT $3
              FOR UPDATE SKIP LOCKED
           ), waited AS (
             -- Branch steps whose wait for a click is over: decided now (domain/branching).
             SELECT id, state, run_id, workflow_id, account_id, contact_id FROM sends
              WHERE state = 'waiting' AND due_at <= now()
              ORDER BY due_at
              LIMIT $3
              FOR UPDATE SKIP LOCKED
           ), candidates AS (
             SELECT * FROM lapsed UNION ALL SELECT * FROM due UNION ALL SELECT * FROM waited LIMIT $3
           )
           UPDATE sends s
        SET state = 'claimed', attempts = s.attempts + 1, claimed_by = $1,
            lease_until = now() + $2 * interval '1 millisecond', claimed_at = now(), updated_at = now()
       FROM candidates due
       LEFT JOIN workflow_runs r ON r.id = due.run_id
       LEFT JOIN workflows w ON w.id = due.workflow_id
       LEFT JOIN contacts c ON c.account_id = due.account_id AND c.contact_id = due.contact_id
      WHERE s.id = due.id
  RETURNING s.id, s.run_id, s.account_id, s.contact_id, s.workflow_id, s.step_id, s.step_index, s.message_id, s.attempts,
            due.state AS previous_state, s.trace_context, r.event_name, r.event_properties, r.stop_before, w.updated_at AS workflow_updated_at,
            CASE WHEN c.contact_id IS NULL THEN NULL ELSE json_build_object(
              'account_id', c.account_id, 'contact_id', c.contact_id, 'email', c.email,
              'first_name', c.first_name, 'last_name', c.last_name, 'subscribed', c.subscribed,
              'bounced', c.bounced, 'deleted', c.deleted, 'suppression', c.suppression, 'tags', c.tags,
              'custom_properties', c.custom_properties)
            END AS contact`,
    values: [instance, leaseMs, limit],
  });
  return rows;
}

export interface SendOutcome {
  state: Exclude<SendState, 'pending' | 'claimed' | 'waiting' | 'branched'>;
  reason?: string | undefined;
  error?: string | undefined;
  smtpResponse?: string | undefined;
  /** For failed_transient: when to try again. */
  retryInMs?: number | undefined;
}
