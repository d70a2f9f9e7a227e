/**
 * What must be undone when the run ends, whether it succeeded, failed or was interrupted: run last
 * registered first (children stop before their databases are dropped), each step on its own so one
 * failure never skips the rest.
 */
export class Cleanup {
  private readonly steps: Array<{ what: string; run: () => Promise<void> }> = [];
  private running: Promise<void> | undefined;

  add(what: string, run: () => Promise<void>): void {
    this.steps.push({ what, run });
  }

  runAll(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.splice(0).reverse()) {
        await step
          .run()
          .catch((error: unknown) =>
            process.stderr.write(`cleanup (${step.what}) failed: ${String(error)}\n`),
          );
      }
    })();
    return this.running;
  }

  /** Ctrl-C or a TERM still removes everything the run created, then exits non-zero. */
  onSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        process.stderr.write(`\n${signal}: cleaning up\n`);
        // The interrupted measurement may still fail in the background; that must not stop the cleanup.
        process.on('uncaughtException', (error) =>
          process.stderr.write(`after ${signal}: ${String(error)}\n`),
        );
        process.on('unhandledRejection', (error) =>
          process.stderr.write(`after ${signal}: ${String(error)}\n`),
        );
        void this.runAll().finally(() => process.exit(130));
      });
    }
  }
}
