import type { Logger } from 'pino';
import type { Pool, PoolClient } from '../db/pool';
import type { TableChangesListener } from '../db/table-changes-listener';
import { withTransaction } from '../db/transaction';
import type { AppError } from '../errors/app-error';
import { SerialReconcile } from '../lifecycle/serial-reconcile';
import { BrokerUnavailableError } from './poison-message-error';

/** What changes a queue's bindings at run time: the shared Broker, or a fake in a test. */
export interface QueueRouter {
  setQueueBindings(queue: string, keys: { bind: readonly string[]; unbind: readonly string[] }): Promise<void>;
}

/** What a write of the rows a queue's bindings follow needs: bind before its commit, tidy up after. */
export interface RoutedWrites<T> {
  /** In the write's transaction, before it commits: binds what `items` need; a failure rolls the write back (a 503). */
  routeWithin(client: PoolClient, items: readonly T[]): Promise<void>;
  /** After a commit that may have made a binding unneeded: unbinds what nothing needs; never throws. */
  afterChange(): Promise<void>;
}

export interface QueueRoutingOptions<T> {
  pool: Pool;
  logger: Logger;
  /** What the bindings are, for the log (`webhooks.facts bindings`). */
  what: string;
  /** One whole reconcile in the given transaction: lock, read the rows, bind what they need and unbind the rest. */
  reconcileWithin: (client: PoolClient) => Promise<unknown>;
  /** Binds what `items` need (unbinding nothing) in the write's transaction, under the same lock. */
  bindWithin: (client: PoolClient, items: readonly T[]) => Promise<void>;
  /** The refusal of a write whose binding the broker could not make. */
  unavailable: () => AppError;
}

/** What starts a reconcile besides the service's own writes (`follow`). */
export interface ReconcileTriggers {
  /**
   * The followed table's NOTIFY channel (changes by any process), on the service's listening
   * connection; its owner starts it after `follow`, and stops it.
   */
  changes: { listener: TableChangesListener; channel: string };
  /** Each (re)connection, the first included: bindings lost with a broker node come back. */
  broker: { onConnected(listener: () => void): void; isConnected(): boolean };
  /** The safety net's period. */
  everyMs: number;
}

/**
 * Keeps a queue's run-time bindings following a table (webhook endpoints, workflow triggers).
 * Reconciles are triggered by the service's start and each broker (re)connection, its own writes,
 * other processes' writes (a NOTIFY) and a periodic safety net; at most one runs here at a time.
 * A write binds what it needs before it commits, so what it saved is routed from its answer on.
 */
export class QueueRouting<T> implements RoutedWrites<T> {
  private readonly serial: SerialReconcile;
  private check: NodeJS.Timeout | undefined;
  private broker: ReconcileTriggers['broker'] | undefined;

  constructor(private readonly options: QueueRoutingOptions<T>) {
    this.serial = new SerialReconcile({
      run: async () => void (await withTransaction(options.pool, options.reconcileWithin)),
      what: options.what,
      logger: options.logger,
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

  /**
   * `reconcileSoon` for a trigger that is not the broker's: nothing while the broker followed is
   * away (its reconnection reconciles), where the reconcile could only fail and log.
   */
  private reconcileSoonWhileConnected(trigger: string): void {
    if (this.broker?.isConnected()) this.reconcileSoon(trigger);
  }

  async routeWithin(client: PoolClient, items: readonly T[]): Promise<void> {
    try {
      await this.options.bindWithin(client, items);
    } catch (error) {
      if (error instanceof BrokerUnavailableError) throw this.options.unavailable();
      throw error;
    }
  }

  async afterChange(): Promise<void> {
    // A binding left behind only costs work, never a message: the change stands, and the next trigger retries.
    await this.reconcile().catch((error: unknown) =>
      this.options.logger.warn({ err: error }, `could not reconcile ${this.options.what} after a change; retrying at the next trigger`),
    );
  }

  /**
   * Reconciles on every trigger from now on: the table's NOTIFY, each broker (re)connection, and
   * every `everyMs`. The listener calls once more each time it starts listening, so a change
   * committed before that is read too. Not while the broker is away: its reconnection reconciles.
   */
  follow(triggers: ReconcileTriggers): void {
    const { listener, channel } = triggers.changes;
    this.broker = triggers.broker;
    listener.on(channel, () => this.reconcileSoonWhileConnected(channel));
    triggers.broker.onConnected(() => this.reconcileSoon('broker connected'));
    this.check = setInterval(() => this.reconcileSoon('periodic check'), triggers.everyMs);
    this.check.unref();
  }

  /** No new reconciles; waits for the one in flight. */
  async stop(): Promise<void> {
    clearInterval(this.check);
    await this.serial.stop();
  }
}
