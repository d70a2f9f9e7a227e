import type { Logger } from 'pino';
import {
  campaignControlV1,
  campaignSendRequestedV1,
  campaignSentV1,
  campaignTestRequestedV1,
  withTransaction,
  type Broker,
  type MessageContract,
  type Pool,
  WakeableLoop,
} from '@mailer/shared';
import { deleteFromOutbox, lockOutboxBatch } from '../../data-access/outbox.repository';

const CONTRACTS: Record<string, MessageContract> = Object.fromEntries(
  [campaignSendRequestedV1, campaignControlV1, campaignTestRequestedV1, campaignSentV1].map((contract) => [
    contract.type,
    contract,
  ]),
);

const BATCH = 50;

/**
 * Publishes committed outbox rows in order (confirmed by the broker), deleting them in the
 * transaction that locked them; a failed publish rolls back and is tried again. It polls, so a
 * row written by the operator CLI (another process) goes out within `pollMs`.
 */
export class CampaignOutboxRelay {
  private readonly loop: WakeableLoop;

  constructor(
    private readonly pool: Pool,
    private readonly broker: Broker,
    logger: Logger,
    pollMs: number,
  ) {
    this.loop = new WakeableLoop('campaigns-outbox-relay', () => this.tick(), pollMs, logger);
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async tick(): Promise<boolean> {
    if (!this.broker.isConnected()) return false;
    return withTransaction(this.pool, async (client) => {
      const batch = await lockOutboxBatch(client, BATCH);
      // All published before any confirm is awaited (the channel keeps their order); one refusal
      // rolls the batch back and the retry republishes it under the same message ids.
      await Promise.all(
        batch.map((message) => {
          const contract = CONTRACTS[message.type];
          if (!contract) throw new Error(`outbox holds an unknown message type ${message.type}`);
          return this.broker.publish(contract, message.payload, { messageId: message.message_id });
        }),
      );
      if (batch.length > 0)
        await deleteFromOutbox(
          client,
          batch.map((message) => message.id),
        );
      return batch.length === BATCH;
    });
  }
}
