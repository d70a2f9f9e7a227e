interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: callers add one item each and wait; items that arrive while a write is in flight
 * go together into the next one. Under load a hundred handlers cost a few statements instead of a
 * hundred transactions; alone, an item is written at once (no timer, no added latency). A failed
 * write fails every item in it, so each caller's message is retried as if it had been written alone.
 */
export class GroupCommit<T> {
  private waiting: Array<Waiting<T>> = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxItems = 500,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxItems);
      try {
        await this.write(batch.map((entry) => entry.item));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}
