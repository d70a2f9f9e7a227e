import { AppError, BrokerUnavailableError, CommonErrorCodes, SerialReconcile, withTransaction, type Logger, type Pool, type PoolClient } from '@mailer/shared';
import type { LiveTrigger } from '../../data-access/trigger-routes.repository';
import { routeLiveTriggers, routeTriggers, type TriggerRouter } from './route-triggers';

/** What a workflow write needs of the routing: bind before its commit, tidy up after. */
export interface TriggerRoutes {
  /** Routes these triggers' events to automation in `client`'s transaction; a 503 when the broker cannot. */
  routeWithin(client: PoolClient, triggers: readonly LiveTrigger[]): Promise<void>;
  /** After a commit that may have retired a trigger: unbinds what no workflow needs (a failure is retried later). */
  afterChange(): Promise<void>;
}

export const routingUnavailable = () =>
  new AppError(CommonErrorCodes.UNAVAILABLE, 'the message broker is unreachable, so the workflow could not be armed; nothing was saved, retry later').withHeaders({
    'Retry-After': '5',
  });

/**
 * Keeps automation.contact-events bound to the (account, event) of every enabled workflow.
 * Reconciles are triggered by the service's start and each broker (re)connection, its own
 * workflow writes, other processes' writes (NOTIFY) and a periodic safety net; at most one runs
 * here at a time.
 */
export class TriggerRouting implements TriggerRoutes {
  private readonly serial: SerialReconcile;

  constructor(private readonly deps: { pool: Pool; router: TriggerRouter; logger: Logger }) {
    this.serial = new SerialReconcile({
      run: async () => void (await withTransaction(deps.pool, (client) => routeLiveTriggers(client, deps.router))),
      what: 'workflow trigger bindings',
      logger: deps.logger,
    });
  }

  /** Whether a reconcile has succeeded since the start. */
  hasReconciled(): boolean {
    return this.serial.hasSucceeded();
  }

  /** Resolves once a reconcile that began after this call has succeeded; rejects with its failure. */
  reconcile(): Promise<void> {
    return this.serial.reconcile();
  }

  reconcileSoon(trigger: string): void {
    this.serial.reconcileSoon(trigger);
  }

  async routeWithin(client: PoolClient, triggers: readonly LiveTrigger[]): Promise<void> {
    try {
      await routeTriggers(client, this.deps.router, triggers);
    } catch (error) {
      if (error instanceof BrokerUnavailableError) throw routingUnavailable();
      throw error;
    }
  }

  async afterChange(): Promise<void> {
    // A binding left behind only delivers events automation ignores: the change stands, and the next trigger retries.
    await this.reconcile().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'could not unbind triggers no workflow needs; retrying at the next trigger'));
  }

  stop(): Promise<void> {
    return this.serial.stop();
  }
}
