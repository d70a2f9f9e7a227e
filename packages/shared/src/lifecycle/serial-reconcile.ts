import type { Logger } from 'pino';

export interface SerialReconcileOptions {
  /** One reconcile: reads what the database says is needed and makes the outside state match. */
  run: () => Promise<void>;
  /** Said after the first success (once), and in the warning of a failed `reconcileSoon`. */
  what: string;
  logger: Logger;
}

/**
 * Runs a reconcile at most one at a time in this process. A caller needs a run that began after
 * its call (the one running may have read the database before the caller's change), so a call
 * during a run is served by the next run, shared by every call made meanwhile.
 */
export class SerialReconcile {
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private succeeded = false;
  private stopped = false;

  constructor(private readonly options: SerialReconcileOptions) {}

  /** Whether a run has succeeded since the start (readiness: until then, the state is as it was left). */
  hasSucceeded(): boolean {
    return this.succeeded;
  }

  /** Resolves once a run that began after this call has succeeded; rejects with its failure. */
  reconcile(): Promise<void> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  /** A run nobody waits for; a failure (broker or Postgres down) is logged and the next trigger retries. */
  reconcileSoon(trigger: string): void {
    if (this.stopped) return;
    this.reconcile().catch((error: unknown) =>
      this.options.logger.warn({ err: error, trigger }, `could not reconcile ${this.options.what}; retrying at the next trigger`),
    );
  }

  /** No new runs from `reconcileSoon`; waits for the ones in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([this.running, this.next]);
  }

  private start(): Promise<void> {
    const run = this.options
      .run()
      .then(() => {
        if (!this.succeeded) this.options.logger.info(`${this.options.what} reconciled`);
        this.succeeded = true;
      })
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }
}
