import { randomUUID } from 'node:crypto';
import { contextFromTraceparent, SERVICE_ATTRIBUTE, withSpan, WakeableLoop } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { claimDueSends, type ClaimedSend } from '../../data-access/sends.repository';
import { processSend } from '../../domain/sending/process-send';
import { loadedFromClaim, type ImmediateSend, type LoadedSend } from '../../domain/sending/prepare-email';
import { WorkflowCache } from '../../domain/sending/workflow-cache';
import type { SendContext } from '../../domain/sending/send-context';

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
  readonly instance = `automation-${randomUUID()}`;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: WakeableLoop;
  private stopping = false;
  private readonly workflows: WorkflowCache;

  constructor(
    private readonly ctx: SendContext,
    private readonly options: SchedulerOptions,
  ) {
    this.loop = new WakeableLoop('send-scheduler', () => this.tick(), options.pollMs, ctx.logger);
    this.workflows = new WorkflowCache(ctx.pool);
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  /**
   * For an enrolment about to commit: this instance's name when it has room for one more
   * send now, else undefined (the row stays pending and the loop claims it). Room is not reserved:
   * concurrent enrolments may overshoot `concurrency` by at most the consumer's prefetch.
   */
  claimNow(): string | undefined {
    if (this.stopping || this.inFlight.size >= this.options.concurrency) return undefined;
    return this.instance;
  }

  /** Workflow sends in flight now (campaign sends give way while it is high). */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  /** Sends steps claimed by `claimNow` once their enrolment committed. */
  sendNow(sends: ImmediateSend[]): void {
    // Stopping: they stay claimed; the lease expires and the restart (or another instance) sends them.
    if (this.stopping) return;
    // Test-only: the claims are committed with our lease, nothing is sent yet.
    if (sends.length > 0) crashPoint('after_claim');
    for (const { send, loaded } of sends) this.launch(send, () => Promise.resolve(loaded));
  }

  /** Stops claiming, then lets every send in flight finish and record its outcome. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async tick(): Promise<boolean> {
    const free = this.options.concurrency - this.inFlight.size;
    // Under a backlog, claim in batches of a quarter of the pipeline rather than one row per
    // finished send: one claim statement serves several sends.
    if (free < Math.max(1, Math.floor(this.options.concurrency / 4))) {
      await Promise.race([...this.inFlight]);
      return true;
    }
    const claimed = await claimDueSends(this.ctx.pool, this.instance, free, this.options.leaseMs);
    // Test-only: the claims are committed with our lease, nothing is sent yet.
    if (claimed.length > 0) crashPoint('after_claim');
    for (const send of claimed) this.launch(send, () => loadedFromClaim(this.workflows, send));
    return claimed.length === free;
  }

  /**
   * Sends one claimed row in the background; `load` runs inside, so its failure costs only this
   * row. The loop is woken only when the send wrote a next step due now: anything else due is
   * claimed by the loop itself (it waits on a full pipeline, and polls), so a finished send does
   * not cost a claim statement that finds nothing.
   */
  private launch(send: ClaimedSend, load: () => Promise<LoadedSend>): void {
    // The step continues the trace of the event that scheduled it, however long the wait was.
    const work = withSpan(
      `send step ${send.step_id}`,
      { [SERVICE_ATTRIBUTE]: 'automation', 'mailer.send_id': send.id, 'mailer.message_id': send.message_id },
      async () => processSend(this.ctx, send, await load()),
      { parent: contextFromTraceparent(send.trace_context) },
    )
      .then(
        (nextDueNow) => {
          if (nextDueNow) this.loop.wake();
        },
        (error: unknown) =>
          this.ctx.logger.error(
            { err: error, sendId: send.id },
            'send failed unexpectedly; the lease will expire and it is retried',
          ),
      )
      .finally(() => {
        this.inFlight.delete(work);
        this.options.afterSend?.();
      });
    this.inFlight.add(work);
  }
}
