import { durationMs, type Workflow } from '../workflows/workflow-schema';

export interface NextStep {
  stepId: string;
  stepIndex: number;
  /** What the ledger row is for: an email to send, or a branch to decide. */
  kind: 'email' | 'branch';
  /** The sum of the wait steps before it. */
  delayMs: number;
}

/**
 * The next step that gets a ledger row after position `after` (-1: from the start), with the waits
 * on the way: an email or a branch. `stopBefore` is where the path the run is on ends (a branch's
 * other side, docs/workflows.md); a step id no longer in the workflow ends nothing.
 */
export function nextStep(workflow: Workflow, after: number, stopBefore?: string | null): NextStep | undefined {
  const boundary = stopBefore ? workflow.steps.findIndex((step) => step.id === stopBefore) : -1;
  const end = boundary > after ? boundary : workflow.steps.length;
  let delayMs = 0;
  for (let index = after + 1; index < end; index++) {
    const step = workflow.steps[index]!;
    if (step.type === 'wait') delayMs += durationMs(step.duration);
    else return { stepId: step.id, stepIndex: index, kind: step.type, delayMs };
  }
  return undefined;
}
