/**
 * Runs shutdown steps one after another (stop accepting, drain consumers, close pools), going on
 * past a failing step so every resource still gets its chance to close.
 */
export async function stopInOrder(steps: Array<(() => Promise<unknown>) | undefined>): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    if (!step) continue;
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, 'some resources failed to close');
}
