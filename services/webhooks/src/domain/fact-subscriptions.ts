import { BrokerUnavailableError, SerialReconcile, withTransaction, type Logger, type Pool, type PoolClient } from '@mailer/shared';
import type { EndpointFactRouting } from './manage-endpoints';
import { routeFactsOf, routeSubscribedFacts, type FactRouter } from './route-facts';
import { routingUnavailable } from './webhook.errors';

/**
 * Keeps `webhooks.facts` bound to the facts enabled endpoints subscribe to. Reconciles are
 * triggered by the service's start and each broker (re)connection, its own endpoint writes, other
 * processes' writes (NOTIFY) and a periodic safety net; at most one runs here at a time.
 */
export class FactSubscriptions implements EndpointFactRouting {
  private readonly serial: SerialReconcile;

  constructor(private readonly deps: { pool: Pool; router: FactRouter; logger: Logger }) {
    this.serial = new SerialReconcile({
      run: async () => void (await withTransaction(deps.pool, (client) => routeSubscribedFacts(client, deps.router))),
      what: 'webhooks.facts bindings',
      logger: deps.logger,
    });
  }

  /** Whether a reconcile has succeeded since the start (readiness: until then old bindings may route too much or too little). */
  hasReconciled(): boolean {
    return this.serial.hasSucceeded();
  }

  /** Resolves once a reconcile that began after this call has succeeded; rejects with its failure. */
  reconcile(): Promise<void> {
    return this.serial.reconcile();
  }

  /** A reconcile nobody waits for; a failure (broker or Postgres down) is logged and the next trigger retries. */
  reconcileSoon(trigger: string): void {
    this.serial.reconcileSoon(trigger);
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
  stop(): Promise<void> {
    return this.serial.stop();
  }
}
