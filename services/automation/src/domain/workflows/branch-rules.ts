/** What the rules read of a step: its id and type. */
interface StepShape {
  id: string;
  type: string;
}

interface BranchShape extends StepShape {
  if: { clicked: string };
  then: string;
  else?: string | undefined;
}

export interface BranchProblem {
  message: string;
  path: Array<string | number>;
}

/**
 * What is wrong with the branch at `index`: it asks about an email the run has already sent (an
 * email step before it), and jumps forward only, to steps that exist. Forward only, because every
 * step runs at most once per contact: a jump back would reach steps already done and stop there.
 */
export function branchProblems(steps: readonly StepShape[], index: number, branch: BranchShape): BranchProblem[] {
  const problems: BranchProblem[] = [];
  const at = (id: string) => steps.findIndex((step) => step.id === id);
  const clicked = at(branch.if.clicked);
  if (clicked < 0 || steps[clicked]!.type !== 'email' || clicked > index) {
    const what = clicked < 0 ? 'no step has that id' : steps[clicked]!.type !== 'email' ? `it is a ${steps[clicked]!.type} step` : 'it comes after the branch';
    problems.push({ message: `must name an email step before the branch ("${branch.if.clicked}": ${what})`, path: ['steps', index, 'if', 'clicked'] });
  }
  const targets: Array<['then' | 'else', string | undefined]> = [
    ['then', branch.then],
    ['else', branch.else],
  ];
  for (const [side, id] of targets) {
    if (id === undefined) continue;
    const target = at(id);
    if (target < 0) problems.push({ message: `must name a step of this workflow (no step has the id "${id}")`, path: ['steps', index, side] });
    else if (target <= index) problems.push({ message: `must name a step after the branch ("${id}" is not after it)`, path: ['steps', index, side] });
  }
  if (branch.else !== undefined && branch.else === branch.then) {
    problems.push({ message: 'must name another step than then', path: ['steps', index, 'else'] });
  }
  return problems;
}
