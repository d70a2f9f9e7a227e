import { BrokerUnavailableError, withTransaction, type Logger, type Pool, type PoolClient } from '@mailer/shared';
import type { EndpointFactRouting } from './manage-endpoints';
import { routeFactsOf, routeSubscribedFacts, type FactRouter } from './route-facts';
import { routingUnavailable } from './webhook.errors';

/**
 * Keeps `webhooks.facts` bound to the facts enabled endpoints subscribe to. Reconciles are
 * triggered by the service's start and each broker (re)connection, its own endpoint writes, other
 * processes' writes (NOTIFY) and a periodic safety net; at most one runs here at a time, and a
 * trigger during one is served by the next (shared by every trigger meanwhile).
 */
export class FactSubscriptions implements EndpointFactRouting {
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private reconciled = false;
  private stopped = false;

  constructor(private readonly deps: { pool: Pool; router: FactRouter; logger: Logger }) {}

  /** Whether a reconcile has succeeded since the start (readiness: until then old bindings may route too much or too little). */
  hasReconciled(): boolean {
    return this.reconciled;
  }

  /** Resolves once a reconcile that began after this call has succeeded; rejects with its failure. */
  reconcile(): Promise<void> {
    if (!this.running) return this.run();
    // The one running may have read the endpoints before the caller's change: the caller needs the next.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.run();
      });
    return this.next;
  }

  /** A reconcile nobody waits for; a failure (broker or Postgres down) is logged and the next trigger retries. */
  reconcileSoon(trigger: string): void {
    if (this.stopped) return;
    this.reconcile().catch((error: unknown) => this.deps.logger.warn({ err: error, trigger }, 'could not route facts to webhooks; retrying at the next trigger'));
  }

  async routeWithin(client: PoolClient, eventTypes: readonly string[]): Promise<void> {
    try {
      await routeFactsOf(client, this.deps.router, eventTypes);
    } catch (error) {
      if (error instanceof BrokerUnavailableError) throw routingUnavailable();
      throw error;
    }
  }

  async afterChange(): Promise<void> {
    // A binding left behind only costs work, never a fact: the change stands, and the next trigger retries.
    await this.reconcile().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'could not unbind facts no endpoint needs; retrying at the next trigger'));
  }

  /** No new reconciles; waits for the one in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([this.running, this.next]);
  }

  private run(): Promise<void> {
    const run = withTransaction(this.deps.pool, (client) => routeSubscribedFacts(client, this.deps.router))
      .then((facts) => {
        if (!this.reconciled) this.deps.logger.info({ facts }, 'webhooks.facts bound to the facts endpoints subscribe to');
        this.reconciled = true;
      })
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }
}
