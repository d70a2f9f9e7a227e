import type { Logger } from 'pino';
import type { Pool } from '../db/pool';
import { idArrayLiteral, lastStatementRows, withBundledTransaction } from '../db/simple-query';
import { WakeableLoop } from '../lifecycle/wakeable-loop';
import type { MessageContract } from '../contracts/message-contract';
import { backoffDelay } from './backoff';
import type { Broker } from './broker';
import { outboxMessages, type OutboxBundle, type OutboxMessage, type OutboxRow } from './outbox-messages';

/** The longest a failed pass's rows wait before the next try. */
const MAX_RETRY_MS = 2000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export interface OutboxRelayOptions {
  /** The loop's name in logs (`automation-outbox-relay`). */
  name: string;
  pool: Pool;
  broker: Broker;
  logger: Logger;
  /** The longest a row waits when no `wake()` comes (one written by another process). */
  pollMs: number;
  /** Every message type the outbox may hold. */
  contracts: MessageContract[];
  /**
   * How long a `wake()` waits for more rows: under load every write wakes the relay, and a pass per
   * write would cost its round trips and a confirm each. 0: a pass at once.
   */
  coalesceMs?: number;
  /** The table keeps the writer's traceparent in `trace_context`; the publish continues that trace. */
  traceContext?: boolean;
  /** Rows one pass claims (50 unless set); a full pass makes the loop go again at once. */
  batchSize?: number;
  /** SQL the message id and type are read from, for a table not laid out as `message_id` and `type`. */
  columns?: { messageId: string; type: string };
  /**
   * Published rows are marked (`published_at`, `attempts` counted on every try) and kept this many
   * hours for operators to read, then pruned. Unset: a row is deleted once its message is confirmed.
   */
  keepPublishedHours?: number;
  /** Rows of one type that travel together (see `OutboxBundle`). */
  bundle?: OutboxBundle;
}

export interface OutboxRelayStats {
  published: number;
  failedAttempts: number;
}

/**
 * Publishes the rows of a service's `outbox` table in id order, each confirmed by the broker, and
 * settles them in the transaction that locked them (`FOR UPDATE SKIP LOCKED`: competing instances
 * take different rows). Rows whose publish failed stay for a later pass, after a backoff; their
 * retry republishes them under the same message ids, which consumers deduplicate.
 *
 * A pass is two round trips, not four: `BEGIN` travels with the locking SELECT and `COMMIT` with
 * the settling statements, as one simple-protocol query each (on this kind of machine each round
 * trip wakes two processes, which is what a pass costs; docs/performance.md).
 */
export class OutboxRelay {
  readonly stats: OutboxRelayStats = { published: 0, failedAttempts: 0 };
  private readonly loop: WakeableLoop;
  private readonly contracts: Map<string, MessageContract>;
  private readonly batchSize: number;
  private readonly claimBatch: string;
  private pendingWake: NodeJS.Timeout | undefined;
  private failedPasses = 0;
  private retryAt = 0;
  private lastPrune = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.contracts = new Map(options.contracts.map((contract) => [contract.type, contract]));
    this.batchSize = positiveInteger('batchSize', options.batchSize ?? 50);
    const { messageId, type } = options.columns ?? { messageId: 'message_id', type: 'type' };
    const columns = `id, ${messageId} AS message_id, ${type} AS type, payload${options.traceContext ? ', trace_context' : ''}`;
    // Written into the prune's SQL (`make_interval` takes whole hours), so checked here.
    if (options.keepPublishedHours !== undefined) positiveInteger('keepPublishedHours', options.keepPublishedHours);
    const pending = options.keepPublishedHours === undefined ? '' : ' WHERE published_at IS NULL';
    this.claimBatch = `BEGIN; SELECT ${columns} FROM outbox${pending} ORDER BY id LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED`;
    this.loop = new WakeableLoop(options.name, () => this.tick(), options.pollMs, options.logger);
  }

  start(): void {
    this.loop.start();
  }

  /** Publishes new rows soon (within `coalesceMs`) rather than at the next poll. */
  wake(): void {
    const coalesceMs = this.options.coalesceMs ?? 0;
    if (coalesceMs === 0) return this.loop.wake();
    if (this.pendingWake) return;
    this.pendingWake = setTimeout(() => {
      this.pendingWake = undefined;
      this.loop.wake();
    }, coalesceMs);
  }

  stop(): Promise<void> {
    clearTimeout(this.pendingWake);
    return this.loop.stop();
  }

  private async tick(): Promise<boolean> {
    if (!this.options.broker.isConnected() || Date.now() < this.retryAt) return false;
    return this.pass();
  }

  private pass(): Promise<boolean> {
    // A failure outside the publishes rolls the whole pass back: the rows stay for the next.
    return withBundledTransaction(this.options.pool, async (client) => {
      const rows = await lastStatementRows<OutboxRow>(client, this.claimBatch);
      if (rows.length === 0) {
        await client.query(this.settlement([], []));
        return false;
      }
      const messages = outboxMessages(rows, this.contracts, this.options.bundle);
      const outcomes = await this.publish(messages);
      const rowsWhere = (status: PromiseSettledResult<void>['status']) =>
        messages.filter((_, index) => outcomes[index]?.status === status).flatMap((message) => message.rowIds);
      const [published, failed] = [rowsWhere('fulfilled'), rowsWhere('rejected')];
      await client.query(this.settlement(published, failed));
      this.stats.published += published.length;
      this.stats.failedAttempts += failed.length;
      if (failed.length > 0) return this.failedPass(failed.length, outcomes);
      this.failedPasses = 0;
      return rows.length === this.batchSize;
    });
  }

  /** All published before any confirm is awaited: the channel keeps their order, the broker confirms them together. */
  private publish(messages: OutboxMessage[]): Promise<PromiseSettledResult<void>[]> {
    return Promise.allSettled(
      messages.map(({ contract, payload, options }) =>
        contract
          ? this.options.broker.publish(contract, payload, options)
          : Promise.reject(new Error(`outbox holds a message type this service does not publish (message ${options.messageId})`)),
      ),
    );
  }

  /** The statements that settle a pass (and, when due, prune it), ending with its COMMIT. */
  private settlement(published: readonly number[], failed: readonly number[]): string {
    const keep = this.options.keepPublishedHours !== undefined;
    const statements = [
      this.pruneIfDue(),
      published.length > 0 &&
        (keep
          ? `UPDATE outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY(${idArrayLiteral(published)})`
          : `DELETE FROM outbox WHERE id = ANY(${idArrayLiteral(published)})`),
      keep && failed.length > 0 && `UPDATE outbox SET attempts = attempts + 1 WHERE id = ANY(${idArrayLiteral(failed)})`,
      'COMMIT',
    ];
    return statements.filter((statement): statement is string => typeof statement === 'string').join('; ');
  }

  private failedPass(pending: number, outcomes: PromiseSettledResult<void>[]): false {
    this.failedPasses += 1;
    this.retryAt = Date.now() + backoffDelay(Math.min(this.failedPasses, 6), this.options.pollMs, MAX_RETRY_MS);
    const reason = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')?.reason;
    this.options.logger.warn({ pending, err: reason, loop: this.options.name }, 'outbox publish failed; will retry');
    return false;
  }

  /**
   * Kept rows published longer ago than they are kept, once every ten minutes (the first pass
   * included), in the pass's own round trip.
   */
  private pruneIfDue(): string | false {
    const hours = this.options.keepPublishedHours;
    if (hours === undefined || Date.now() - this.lastPrune < PRUNE_EVERY_MS) return false;
    this.lastPrune = Date.now();
    return `DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < now() - make_interval(hours => ${hours})`;
  }
}

/** `value` when it is a positive whole number; a relay configured otherwise refuses to start. */
function positiveInteger(option: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${option} ${value} is not a positive integer`);
  return value;
}
