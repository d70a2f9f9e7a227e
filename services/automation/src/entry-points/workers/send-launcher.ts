import { randomUUID } from 'node:crypto';
import { contextFromTraceparent, SERVICE_ATTRIBUTE, withSpan } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import type { ClaimedSend } from '../../data-access/sends.repository';
import { branchStepOf } from '../../domain/branching/branch-paths';
import { decideBranch } from '../../domain/branching/decide-branch';
import { processSend } from '../../domain/sending/process-send';
import type { ImmediateSend, LoadedSend } from '../../domain/sending/prepare-email';
import type { SendContext } from '../../domain/sending/send-context';

export interface SendLauncherOptions {
  concurrency: number;
  leaseMs: number;
  /** A send wrote its run's next step, due at once: someone must claim it now. */
  onNextDueNow: () => void;
  /** Called after each send recorded its outcome (wakes the outbox relay). */
  afterSend?: () => void;
}

/**
 * The sends one instance has claimed and has in flight, at most `concurrency` of them: each is
 * sent and its outcome recorded in the background. The scheduler's claim loop hands it what it
 * claims; an enrolment that claimed its first step in its own statement (`claimNow`) hands that
 * over once committed (`sendNow`).
 */
export class SendLauncher {
  readonly instance: string;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly ctx: SendContext,
    private readonly options: SendLauncherOptions,
  ) {
    // The claims' owner: the ledger says which instance holds a claim.
    this.instance = `automation-${randomUUID()}`;
  }

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  /** Sends in flight now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Room for this many more sends now (none while stopping). */
  get free(): number {
    return this.stopping ? 0 : this.options.concurrency - this.inFlight.size;
  }

  /**
   * For an enrolment about to commit: this instance's name when it has room for one more send
   * now, else undefined (the row stays pending and a scheduler's loop claims it). Room is not
   * reserved: concurrent enrolments may overshoot `concurrency` by the enrolments in flight.
   */
  claimNow(): string | undefined {
    return this.free > 0 ? this.instance : undefined;
  }

  /** Sends steps claimed by `claimNow` once their enrolment committed. */
  sendNow(sends: readonly ImmediateSend[]): void {
    // Stopping: they stay claimed; the lease expires and another instance (or the restart) sends them.
    if (this.stopping) return;
    // Test-only: the claims are committed with our lease, nothing is sent yet.
    if (sends.length > 0) crashPoint('after_claim');
    for (const { send, loaded } of sends) this.launch(send, () => Promise.resolve(loaded));
  }

  /** Resolves when one send in flight has finished (at once when none is). */
  async oneFinished(): Promise<void> {
    if (this.inFlight.size > 0) await Promise.race([...this.inFlight]);
  }

  /** Takes no new send, then lets every send in flight finish and record its outcome. */
  async stop(): Promise<void> {
    this.stopping = true;
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /**
   * Sends one claimed row in the background; `load` runs inside, so its failure costs only this
   * row. `onNextDueNow` is called only when the send wrote a next step due now: anything else due
   * is claimed by a scheduler's loop (it waits on a full pipeline, and polls), so a finished send
   * does not cost a claim statement that finds nothing.
   */
  launch(send: ClaimedSend, load: () => Promise<LoadedSend>): void {
    // The step continues the trace of the event that scheduled it, however long the wait was.
    const work = withSpan(
      `send step ${send.step_id}`,
      { [SERVICE_ATTRIBUTE]: 'automation', 'mailer.send_id': send.id, 'mailer.message_id': send.message_id },
      async () => {
        const loaded = await load();
        // A branch step's row is decided, not sent; anything else (an email, a step gone) is processSend's.
        const branch = branchStepOf(loaded.workflow, send.step_id);
        return branch ? decideBranch(this.ctx, send, loaded.workflow!, branch.step) : processSend(this.ctx, send, loaded);
      },
      { parent: contextFromTraceparent(send.trace_context) },
    )
      .then(
        (nextDueNow) => {
          if (nextDueNow) this.options.onNextDueNow();
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
