import type { Logger } from 'pino';
import type { Pool } from '../db/pool';
import { idArrayLiteral, lastStatementRows, withBundledTransaction } from '../db/simple-query';
import { WakeableLoop } from '../lifecycle/wakeable-loop';
import type { MessageContract } from '../contracts/message-contract';
import type { Broker } from './broker';

/** How many rows one pass publishes; a full batch makes the loop go again at once. */
const BATCH = 50;

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
}

interface OutboxRow {
  id: number;
  message_id: string;
  type: string;
  payload: unknown;
  trace_context?: string | null;
}

/**
 * Publishes the rows of a service's `outbox` table (id, message_id, type, payload[, trace_context])
 * in id order, each confirmed by the broker, and deletes them in the transaction that locked them
 * (`FOR UPDATE SKIP LOCKED`: competing instances take different rows). A failed publish rolls the
 * batch back; the retry republishes it under the same message ids, which consumers deduplicate.
 *
 * A pass is two round trips, not four: `BEGIN` travels with the locking SELECT and `COMMIT` with
 * the DELETE, as one simple-protocol query each (on this kind of machine each round trip wakes two
 * processes, which is what a pass costs; docs/performance.md).
 */
export class OutboxRelay {
  private readonly loop: WakeableLoop;
  private readonly contracts: Map<string, MessageContract>;
  private readonly lockBatch: string;
  private pendingWake: NodeJS.Timeout | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.contracts = new Map(options.contracts.map((contract) => [contract.type, contract]));
    const columns = `id, message_id, type, payload${options.traceContext ? ', trace_context' : ''}`;
    this.lockBatch = `BEGIN; SELECT ${columns} FROM outbox ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
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
    if (!this.options.broker.isConnected()) return false;
    // A failure anywhere rolls the batch back: the rows stay for the next pass.
    return withBundledTransaction(this.options.pool, async (client) => {
      const batch = await lastStatementRows<OutboxRow>(client, this.lockBatch);
      if (batch.length === 0) {
        await client.query('COMMIT');
        return false;
      }
      await this.publish(batch);
      await client.query(`DELETE FROM outbox WHERE id = ANY(${idArrayLiteral(batch.map((row) => row.id))}); COMMIT`);
      return batch.length === BATCH;
    });
  }

  /** All published before any confirm is awaited: the channel keeps their order, the broker confirms them together. */
  private async publish(batch: OutboxRow[]): Promise<void> {
    await Promise.all(
      batch.map((row) => {
        const contract = this.contracts.get(row.type);
        if (!contract) throw new Error(`outbox holds an unknown message type ${row.type}`);
        const headers = row.trace_context ? { traceparent: row.trace_context } : undefined;
        return this.options.broker.publish(contract, row.payload, { messageId: row.message_id, headers });
      }),
    );
  }
}
