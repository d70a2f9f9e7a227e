import type { StoredWorkflow } from '../../data-access/workflows.repository';
import { durationMs, type BranchStep, type Workflow } from '../workflows/workflow-schema';

export type Side = 'then' | 'else';

/** The branch step `stepId` of the workflow as it is now, or undefined (gone, or no longer a branch). */
export function branchStepOf(workflow: StoredWorkflow | undefined, stepId: string): { step: BranchStep; index: number } | undefined {
  const index = workflow?.definition.steps.findIndex((candidate) => candidate.id === stepId) ?? -1;
  const step = index >= 0 ? workflow!.definition.steps[index] : undefined;
  return step?.type === 'branch' ? { step, index } : undefined;
}

/**
 * Where the run goes on once the branch at `index` took `side`: the step it starts at, and the step
 * its path stops before. A path runs from its target, in order, up to the other side's target when
 * that comes later, never past the end of the path the branch itself is on (`stopBefore`, null: the
 * end of the steps). Undefined when the run ends: no `else`, or a target gone since (a re-import).
 */
export function pathOf(
  workflow: Workflow,
  index: number,
  branch: BranchStep,
  side: Side,
  stopBefore: string | null,
): { startIndex: number; stopBefore: string | null } | undefined {
  const at = (id: string | null | undefined) => (id ? workflow.steps.findIndex((step) => step.id === id) : -1);
  const outer = at(stopBefore);
  const outerEnd = outer > index ? outer : workflow.steps.length;
  const start = at(side === 'then' ? branch.then : branch.else);
  if (start <= index || start >= outerEnd) return undefined;
  const other = at(side === 'then' ? branch.else : branch.then);
  const end = other > start && other < outerEnd ? other : outerEnd;
  return { startIndex: start, stopBefore: end < workflow.steps.length ? workflow.steps[end]!.id : null };
}

export type Verdict = { side: Side; why: string } | { side: 'wait'; until: Date; why: string };

/**
 * The branch's decision from its email in this run: clicked by a reader no later than the
 * email's send time + `within` → then; before that deadline with no click → wait until it; after
 * it (or the email never went out) → else. Times are the database's, so every instance agrees.
 */
export function verdictOf(branch: BranchStep, email: { sent_at: Date | null; first_clicked_at: Date | null; now: Date }): Verdict {
  const { clicked, within } = branch.if;
  const deadline = email.sent_at ? new Date(email.sent_at.getTime() + durationMs(within)) : undefined;
  if (deadline && email.first_clicked_at && email.first_clicked_at <= deadline) return { side: 'then', why: `clicked "${clicked}" within ${within}` };
  if (deadline && deadline > email.now) return { side: 'wait', until: deadline, why: `waiting for a click on "${clicked}" until ${deadline.toISOString()}` };
  return { side: 'else', why: deadline ? `no click on "${clicked}" within ${within}` : `"${clicked}" was not sent in this run` };
}
