import type { PoolClient } from '@mailer/shared';
import { SENDS_DUE_CHANNEL } from './enrolment.repository';

/** A branch step's ledger row: which run and step it decides. */
export interface BranchRow {
  id: number;
  run_id: number;
  account_id: number;
  contact_id: number;
  workflow_id: number;
  step_id: string;
}

/**
 * Who may decide the branch: the claimant of this attempt (the row reached, or its wait ended), or
 * a click while the row is still waiting. Either way one state transition decides it, so a click at
 * the deadline and the deadline's claim cannot both.
 */
export type BranchFence = { claimedAttempt: number } | 'waiting';

/** The email a branch asks about, in the same run: when it went out and when the contact first clicked. */
export interface ClickedEmail {
  sent_at: Date | null;
  first_clicked_at: Date | null;
  /** The database's clock, which the deadline is compared with. */
  now: Date;
}

/**
 * The email step `stepId` of the branch's run, locked (FOR SHARE) until the decision commits: a
 * click being recorded on it (a row lock held by the engagement transaction) is waited for and
 * seen, and one recorded after this is decided waits for it, then finds the branch decided.
 */
export async function lockClickedEmail(client: PoolClient, branch: BranchRow, stepId: string): Promise<ClickedEmail> {
  const { rows } = await client.query<ClickedEmail>(
    `SELECT sent_at, first_clicked_at, now() AS now FROM sends
      WHERE account_id = $1 AND contact_id = $2 AND workflow_id = $3 AND step_id = $4 AND kind = 'email'
        FOR SHARE`,
    [branch.account_id, branch.contact_id, branch.workflow_id, stepId],
  );
  if (rows[0]) return rows[0];
  // This run never had that email (it was on a path not taken): never clicked.
  const clock = await client.query<{ now: Date }>('SELECT now() AS now');
  return { sent_at: null, first_clicked_at: null, now: clock.rows[0]!.now };
}

/** The claimed branch found no click yet: it waits until `deadline`, when the claim loop takes it again. False when the claim was lost. */
export async function waitForClick(client: PoolClient, branch: BranchRow, attempt: number, deadline: Date, reason: string): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE sends SET state = 'waiting', due_at = $3, reason = $4, claimed_by = NULL, lease_until = NULL, updated_at = now()
      WHERE id = $1 AND state = 'claimed' AND attempts = $2`,
    [branch.id, attempt, deadline, reason],
  );
  return rowCount === 1;
}

/**
 * Decides the branch, if `fence` still holds: `branched` with the side in `reason`, and the run's
 * path end set to `stopBefore`. False when someone else decided it (or took the claim) first.
 */
export async function markBranched(client: PoolClient, branch: BranchRow, fence: BranchFence, reason: string, stopBefore: string | null): Promise<boolean> {
  const held = fence === 'waiting' ? `state = 'waiting'` : `state = 'claimed' AND attempts = $4`;
  const { rowCount } = await client.query(
    `WITH decided AS (
       UPDATE sends SET state = 'branched', reason = $2, claimed_by = NULL, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND ${held}
       RETURNING run_id)
     UPDATE workflow_runs SET stop_before = $3 WHERE id IN (SELECT run_id FROM decided)`,
    fence === 'waiting' ? [branch.id, reason, stopBefore] : [branch.id, reason, stopBefore, fence.claimedAttempt],
  );
  return rowCount === 1;
}

/** The ledger row of the step the side taken goes on at (once per contact, as every step), due after the waits before it. */
export async function addStepRow(
  client: PoolClient,
  branch: BranchRow,
  step: { stepId: string; stepIndex: number; kind: 'email' | 'branch'; messageId: string; delayMs: number },
): Promise<void> {
  await client.query(
    `WITH added AS (
       INSERT INTO sends (run_id, account_id, contact_id, workflow_id, step_id, step_index, kind, message_id, due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9::float8 * interval '1 millisecond')
       ON CONFLICT ON CONSTRAINT sends_once_key DO NOTHING
       RETURNING due_at <= now() AS due_now)
     -- Due now: every instance's scheduler hears it at commit, and one with room claims it.
     SELECT pg_notify('${SENDS_DUE_CHANNEL}', '') FROM added WHERE due_now`,
    [branch.run_id, branch.account_id, branch.contact_id, branch.workflow_id, step.stepId, step.stepIndex, step.kind, step.messageId, step.delayMs],
  );
}

/** The run's last email (rows are written in run order), for "workflow completed" when a branch ends the run. */
export async function lastEmailOfRun(client: PoolClient, runId: number): Promise<{ step_id: string; state: string } | undefined> {
  const { rows } = await client.query<{ step_id: string; state: string }>(
    `SELECT step_id, state FROM sends WHERE run_id = $1 AND kind = 'email' ORDER BY id DESC LIMIT 1`,
    [runId],
  );
  return rows[0];
}

/** A waiting branch of the clicked email's run, locked, with its deadline and the run's path end. */
export interface WaitingBranch extends BranchRow {
  due_at: Date;
  stop_before: string | null;
  clicked_step: string;
  first_clicked_at: Date | null;
}

/** The waiting branches of the run the clicked email `sendId` belongs to (at most one: a run is at one step at a time). */
export async function waitingBranchesOf(client: PoolClient, sendId: number): Promise<WaitingBranch[]> {
  const { rows } = await client.query<WaitingBranch>(
    `SELECT b.id, b.run_id, b.account_id, b.contact_id, b.workflow_id, b.step_id, b.due_at, r.stop_before,
            e.step_id AS clicked_step, e.first_clicked_at
       FROM sends e
       JOIN sends b ON b.run_id = e.run_id AND b.state = 'waiting'
       JOIN workflow_runs r ON r.id = b.run_id
      WHERE e.id = $1
        FOR UPDATE OF b`,
    [sendId],
  );
  return rows;
}
