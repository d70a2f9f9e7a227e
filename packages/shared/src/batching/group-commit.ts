import { setImmediate as endOfTurn } from 'node:timers/promises';

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: callers add one item each and wait; items added in the same turn of the event loop,
 * or while a write is in flight, go together into the next write (a statement, a broker message).
 * Under load a hundred handlers cost a few writes instead of a hundred; alone, an item is written
 * in the same turn (no timer). A failed write fails every item in it, so each caller's message is
 * retried as if it had been written alone. `write` may answer each item (its results in the items'
 * order), which `add` resolves with.
 *
 * Each write leaves at the end of its turn (`setImmediate`), after the callers resolved by the
 * previous write have sent their answers: on a small machine the server a write wakes often runs on
 * this process's core at once, and a write sent first would hold those answers back behind the
 * whole statement (docs/adr/0034-group-commit-for-hot-statements-and-publishes.md).
 */
export class GroupCommit<T, R = void> {
  private waiting: Array<Waiting<T, R>> = [];
  private writing = false;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- a writer with nothing to answer returns nothing
    private readonly write: (items: T[]) => Promise<R[] | void>,
    private readonly maxItems = 500,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      await endOfTurn();
      const batch = this.waiting.splice(0, this.maxItems);
      try {
        const results = await this.write(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results?.[index] as R));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}
