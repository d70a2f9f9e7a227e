import type { Logger } from 'pino';
import {
  contactBouncedV1,
  contactConfirmedV1,
  contactUnsubscribeRequestedV1,
  emailSentV1,
  workflowCompletedV1,
  withTransaction,
  type Broker,
  type MessageContract,
  type Pool,
  WakeableLoop,
} from '@mailer/shared';
import { deleteFromOutbox, lockOutboxBatch } from '../../data-access/outbox.repository';

const CONTRACTS: Record<string, MessageContract> = Object.fromEntries(
  [contactBouncedV1, contactUnsubscribeRequestedV1, emailSentV1, workflowCompletedV1, contactConfirmedV1].map(
    (contract) => [contract.type, contract],
  ),
);

const BATCH = 50;

/**
 * How long a wake-up waits for more rows: under load every send wakes the relay, and one pass per
 * send would cost a transaction and a confirm round trip each; a pass every few ms batches them.
 */
const COALESCE_MS = 20;

/**
 * Publishes committed outbox rows (confirmed by the broker) and deletes them in the same
 * transaction that locked them; a failed publish rolls back and is tried again later.
 */
export class OutboxRelay {
  private readonly loop: WakeableLoop;
  private pendingWake: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly broker: Broker,
    logger: Logger,
    pollMs: number,
  ) {
    this.loop = new WakeableLoop('outbox-relay', () => this.tick(), pollMs, logger);
  }

  start(): void {
    this.loop.start();
  }

  /** Publishes new rows soon (within COALESCE_MS) rather than at the next poll. */
  wake(): void {
    if (this.pendingWake) return;
    this.pendingWake = setTimeout(() => {
      this.pendingWake = undefined;
      this.loop.wake();
    }, COALESCE_MS);
  }

  stop(): Promise<void> {
    clearTimeout(this.pendingWake);
    return this.loop.stop();
  }

  private async tick(): Promise<boolean> {
    if (!this.broker.isConnected()) return false;
    return withTransaction(this.pool, async (client) => {
      const batch = await lockOutboxBatch(client, BATCH);
      if (batch.length === 0) return false;
      // All published before any confirm is awaited: the channel keeps their order, and the
      // broker confirms them together instead of one round trip each. One refusal rolls the
      // batch back; the retry republishes the rest under the same message ids (consumers dedupe).
      await Promise.all(
        batch.map((message) => {
          const contract = CONTRACTS[message.type];
          if (!contract) throw new Error(`outbox holds an unknown message type ${message.type}`);
          const headers = message.trace_context ? { traceparent: message.trace_context } : undefined;
          return this.broker.publish(contract, message.payload, { messageId: message.message_id, headers });
        }),
      );
      await deleteFromOutbox(
        client,
        batch.map((message) => message.id),
      );
      return batch.length === BATCH;
    });
  }
}
