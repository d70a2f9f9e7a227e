import { pathOf, verdictOf } from '../src/domain/branching/branch-paths';
import { workflowSchema, type BranchStep } from '../src/domain/workflows/workflow-schema';

const email = (id: string) => ({ id, type: 'email', subject: id, text: id });

/** a, B1 (clicked a: then t1, else e1), t1, B2 (clicked t1: then t2, else t3), t2, t3, e1, e2 */
const workflow = workflowSchema.parse({
  name: 'nested',
  trigger: { event: 'e' },
  steps: [
    email('a'),
    { id: 'B1', type: 'branch', if: { clicked: 'a', within: '1d' }, then: 't1', else: 'e1' },
    email('t1'),
    { id: 'B2', type: 'branch', if: { clicked: 't1', within: '1d' }, then: 't2', else: 't3' },
    email('t2'),
    email('t3'),
    email('e1'),
    email('e2'),
  ],
});
const branch = (index: number) => workflow.steps[index] as BranchStep;

describe('branch paths', () => {
  it('runs a side from its target up to the other side\'s target, or to the end of the path the branch is on', () => {
    expect(pathOf(workflow, 1, branch(1), 'then', null)).toEqual({ startIndex: 2, stopBefore: 'e1' });
    expect(pathOf(workflow, 1, branch(1), 'else', null)).toEqual({ startIndex: 6, stopBefore: null });
    // Nested in the then path of B1 (which stops before e1): never past it.
    expect(pathOf(workflow, 3, branch(3), 'then', 'e1')).toEqual({ startIndex: 4, stopBefore: 't3' });
    expect(pathOf(workflow, 3, branch(3), 'else', 'e1')).toEqual({ startIndex: 5, stopBefore: 'e1' });
  });

  it('ends the run without else, or when a target is gone or outside the path the branch is on', () => {
    const noElse = { ...branch(1), else: undefined };
    expect(pathOf(workflow, 1, noElse, 'else', null)).toBeUndefined();
    expect(pathOf(workflow, 1, noElse, 'then', null)).toEqual({ startIndex: 2, stopBefore: null });
    expect(pathOf(workflow, 1, { ...branch(1), then: 'gone' }, 'then', null)).toBeUndefined();
    expect(pathOf(workflow, 3, { ...branch(3), else: 'e2' }, 'else', 'e1')).toBeUndefined();
  });
});

describe('branch verdicts', () => {
  const sent = new Date('2026-01-01T00:00:00Z');
  const at = (hours: number) => new Date(sent.getTime() + hours * 3_600_000);

  it('then for a click by the deadline, whenever it is read; wait before it; else after it or for an email never sent', () => {
    expect(verdictOf(branch(1), { sent_at: sent, first_clicked_at: at(24), now: at(30) })).toEqual({ side: 'then', why: 'clicked "a" within 1d' });
    expect(verdictOf(branch(1), { sent_at: sent, first_clicked_at: null, now: at(1) })).toEqual({
      side: 'wait',
      until: at(24),
      why: 'waiting for a click on "a" until 2026-01-02T00:00:00.000Z',
    });
    expect(verdictOf(branch(1), { sent_at: sent, first_clicked_at: at(25), now: at(25) })).toEqual({ side: 'else', why: 'no click on "a" within 1d' });
    expect(verdictOf(branch(1), { sent_at: sent, first_clicked_at: null, now: at(24) })).toEqual({ side: 'else', why: 'no click on "a" within 1d' });
    expect(verdictOf(branch(1), { sent_at: null, first_clicked_at: null, now: at(0) })).toEqual({ side: 'else', why: '"a" was not sent in this run' });
  });
});
