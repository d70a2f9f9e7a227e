import { WakeableLoop } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { claimDueSends } from '../../data-access/sends.repository';
import { loadedFromClaim, type ImmediateSend } from '../../domain/sending/prepare-email';
import { WorkflowCache } from '../../domain/sending/workflow-cache';
import type { SendContext } from '../../domain/sending/send-context';
import { SendLauncher } from './send-launcher';

export interface SchedulerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Called after each send recorded its outcome (wakes the outbox relay). */
  afterSend?: () => void;
}

/**
 * Claims due ledger rows (any number of instances side by side) and sends them, at most
 * `concurrency` at a time; otherwise it polls. A first step due at enrolment skips the poll: the
 * enrolment claims it for this instance in its own statement and hands it over (`sendNow`).
 */
export class SendScheduler {
  private readonly launcher: SendLauncher;
  private readonly loop: WakeableLoop;
  private readonly workflows: WorkflowCache;

  constructor(
    private readonly ctx: SendContext,
    private readonly options: SchedulerOptions,
  ) {
    this.loop = new WakeableLoop('send-scheduler', () => this.tick(), options.pollMs, ctx.logger);
    this.launcher = new SendLauncher(ctx, {
      concurrency: options.concurrency,
      leaseMs: options.leaseMs,
      onNextDueNow: () => this.loop.wake(),
      afterSend: options.afterSend,
    });
    this.workflows = new WorkflowCache(ctx.pool);
  }

  get instance(): string {
    return this.launcher.instance;
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  /** See `SendLauncher.claimNow`. */
  claimNow(): string | undefined {
    return this.launcher.claimNow();
  }

  /** Workflow sends in flight now (campaign sends give way while it is high). */
  get inFlightCount(): number {
    return this.launcher.inFlightCount;
  }

  get leaseMs(): number {
    return this.launcher.leaseMs;
  }

  /** Sends steps claimed by `claimNow` once their enrolment committed. */
  sendNow(sends: readonly ImmediateSend[]): void {
    this.launcher.sendNow(sends);
  }

  /** Stops claiming, then lets every send in flight finish and record its outcome. */
  async stop(): Promise<void> {
    // Refused at once: no enrolment claims for this instance any more, no tick claims more.
    const draining = this.launcher.stop();
    await this.loop.stop();
    await draining;
    // What a tick already claiming when stop began launched after the first wait.
    await this.launcher.stop();
  }

  private async tick(): Promise<boolean> {
    const free = this.launcher.free;
    // Under a backlog, claim in batches of a quarter of the pipeline rather than one row per
    // finished send: one claim statement serves several sends.
    if (free < Math.max(1, Math.floor(this.options.concurrency / 4))) {
      await this.launcher.oneFinished();
      return true;
    }
    const claimed = await claimDueSends(this.ctx.pool, this.instance, free, this.options.leaseMs);
    // Test-only: the claims are committed with our lease, nothing is sent yet.
    if (claimed.length > 0) crashPoint('after_claim');
    for (const send of claimed) this.launcher.launch(send, () => loadedFromClaim(this.workflows, send));
    return claimed.length === free;
  }
}
