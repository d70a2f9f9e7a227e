import { WakeableLoop } from '@mailer/shared';
import { randomUUID } from 'node:crypto';
import { claimDueDeliveries } from '../../data-access/deliveries.repository';
import { deliverWebhook, type DeliveryContext } from '../../domain/deliver-webhook';

export interface DeliveryWorkerOptions {
  /** Attempts in flight at once, across endpoints (one per endpoint at most). */
  concurrency: number;
  /** How long a claim lasts: the attempt's deadline plus room to record it. */
  leaseMs: number;
  pollMs: number;
}

/**
 * Claims due deliveries (any number of instances side by side) and attempts them, at most
 * `concurrency` at a time and one per endpoint. A free slot claims again at once, so a dead
 * endpoint's timeout delays only that endpoint's next message.
 */
export class DeliveryWorker {
  readonly instance = `webhooks-${randomUUID()}`;
  private readonly inFlight = new Set<Promise<void>>();
  /** Endpoints with an attempt in flight here: new rows for them wait for that attempt's end. */
  private readonly busyEndpoints = new Set<number>();
  private readonly loop: WakeableLoop;

  constructor(
    private readonly ctx: DeliveryContext,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.loop = new WakeableLoop('webhook-deliveries', () => this.tick(), options.pollMs, ctx.logger);
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  /**
   * New deliveries for these endpoints: claim now unless each already has an attempt in flight
   * here, whose end claims again anyway. A dead endpoint (one attempt always waiting out its
   * timeout) would otherwise cost a claim statement per queued fact.
   */
  wakeFor(endpointIds: number[]): void {
    if (endpointIds.some((id) => !this.busyEndpoints.has(id))) this.loop.wake();
  }

  /** Stops claiming and lets the attempts in flight finish (each is bounded by the request timeout). */
  async stop(): Promise<void> {
    await this.loop.stop();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async tick(): Promise<boolean> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) {
      await Promise.race([...this.inFlight]);
      return true;
    }
    const claimed = await claimDueDeliveries(this.ctx.pool, this.instance, free, this.options.leaseMs);
    for (const delivery of claimed) {
      this.busyEndpoints.add(delivery.endpoint_id);
      const work = deliverWebhook(this.ctx, delivery)
        .catch((error: unknown) =>
          this.ctx.logger.warn(
            { err: error, delivery: delivery.id },
            'webhook attempt could not be recorded; the lease will lapse and it is tried again',
          ),
        )
        // The endpoint may have more due: claim again now rather than at the next poll.
        .finally(() => {
          this.busyEndpoints.delete(delivery.endpoint_id);
          this.inFlight.delete(work);
          this.loop.wake();
        });
      this.inFlight.add(work);
    }
    return claimed.length === free;
  }
}
