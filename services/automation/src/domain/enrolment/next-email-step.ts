import { durationMs, type Workflow } from '../workflows/workflow-schema';

export interface NextStep {
  stepId: string;
  stepIndex: number;
  /** The sum of the wait steps before it. */
  delayMs: number;
}

/** The next email step after position `after` (-1: from the start), with the waits on the way. */
export function nextEmailStep(workflow: Workflow, after: number): NextStep | undefined {
  let delayMs = 0;
  for (let index = after + 1; index < workflow.steps.length; index++) {
    const step = workflow.steps[index]!;
    if (step.type === 'wait') delayMs += durationMs(step.duration);
    else return { stepId: step.id, stepIndex: index, delayMs };
  }
  return undefined;
}
