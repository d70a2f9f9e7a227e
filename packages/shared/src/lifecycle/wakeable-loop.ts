import type { Logger } from 'pino';

/**
 * A background loop: runs `tick` until it reports no work, then sleeps `pollMs` or until `wake()`.
 * `stop()` waits for the tick in progress.
 */
export class WakeableLoop {
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly name: string,
    private readonly tick: () => Promise<boolean>,
    private readonly pollMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      let busy = false;
      try {
        busy = await this.tick();
      } catch (error) {
        this.logger.warn({ err: error, loop: this.name }, 'background loop iteration failed');
      }
      if (busy || this.woken || this.stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }
}
