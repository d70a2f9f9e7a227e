import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import {
  backoffDelay,
  chunksOf,
  contactCreatedV1,
  contactsCreatedV1,
  MAX_FACTS_PER_MESSAGE,
  withBundledTransaction,
  type Broker,
  type MessageContract,
  type MessageOf,
  type Pool,
} from '@mailer/shared';
import { beginAndClaimPending, prunePublished, recordPassAndCommit, type OutboxRow } from '../data-access/outbox.repository';
import { outboxContracts } from './outbox-contracts';

/**
 * Rows per pass. A pass costs two round trips and wakes the broker and its consumers, so under a
 * stream of creates a few large passes per poll cost less than many small ones: 500 instead of 100
 * took contacts' relay, automation's projection and RabbitMQ from 54-57 to 32-35 µs per create in
 * the benchmark's closed loop (docs/performance.md). Facts still travel at most
 * `MAX_FACTS_PER_MESSAGE` to a message.
 */
const BATCH_SIZE = 500;
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const KEEP_PUBLISHED_HOURS = 24;

export interface OutboxRelayStats {
  published: number;
  failedAttempts: number;
}

/**
 * Publishes outbox rows in id order on the broker's confirm channel, with the outbox id as the
 * message id, and marks a row published only after the broker confirmed it. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so several instances share the work without publishing a row twice
 * (a crash between confirm and commit re-publishes it: consumers dedupe by message id).
 */
export class OutboxRelay {
  readonly stats: OutboxRelayStats = { published: 0, failedAttempts: 0 };
  private running = true;
  private wakeUp: (() => void) | undefined;
  private readonly loop: Promise<void>;
  private lastPrune = 0;

  constructor(private readonly deps: { pool: Pool; broker: Broker; logger: Logger; pollMs: number }) {
    this.loop = this.run();
  }

  /** Look for new rows now rather than at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    for (let failures = 0; this.running;) {
      try {
        const { claimed, failed } = await this.publishBatch();
        failures = failed ? failures + 1 : 0;
        if (failed) await this.idle(backoffDelay(Math.min(failures, 6), this.deps.pollMs, 2000));
        else if (claimed < BATCH_SIZE) await this.idle(this.deps.pollMs);
        await this.pruneNowAndThen();
      } catch (error) {
        failures += 1;
        this.deps.logger.warn({ err: error }, 'outbox relay pass failed');
        await this.idle(backoffDelay(Math.min(failures, 6), this.deps.pollMs, 2000));
      }
    }
  }

  /**
   * One pass in two round trips (BEGIN with the claim, the outcome with COMMIT): on this kind of
   * machine a round trip wakes two processes, which is most of what a pass costs.
   */
  private async publishBatch(): Promise<{ claimed: number; failed: boolean }> {
    // A failure anywhere rolls the pass back: the rows stay unpublished (attempts uncounted) for the next.
    return withBundledTransaction(this.deps.pool, async (client) => {
      const rows = await beginAndClaimPending(client, BATCH_SIZE);
      if (rows.length === 0) {
        await client.query('COMMIT');
        return { claimed: 0, failed: false };
      }
      const messages = messagesOf(rows);
      const outcomes = await Promise.allSettled(messages.map((message) => this.publish(message)));
      const idsWhere = (status: PromiseSettledResult<void>['status']) =>
        messages.filter((_, index) => outcomes[index]?.status === status).flatMap((message) => message.map((row) => row.id));
      const [published, failed] = [idsWhere('fulfilled'), idsWhere('rejected')];
      await recordPassAndCommit(client, published, failed);
      this.stats.published += published.length;
      this.stats.failedAttempts += failed.length;
      if (failed.length > 0) {
        const reason = outcomes.find((outcome) => outcome.status === 'rejected');
        this.deps.logger.warn(
          { pending: failed.length, err: reason?.status === 'rejected' ? reason.reason : undefined },
          'outbox publish failed; will retry',
        );
      }
      return { claimed: rows.length, failed: failed.length > 0 };
    });
  }

  /** One row as a message of its own (its id the message's), or several created facts as one `contacts.created.v1`. */
  private publish(rows: OutboxRow[]): Promise<void> {
    const [row] = rows;
    if (row === undefined) return Promise.resolve();
    // One trace context per message: for several facts the first one's, the others' traces end at their commit.
    const headers = row.trace_context ? { traceparent: row.trace_context } : undefined;
    if (rows.length > 1) {
      const facts = rows.map(({ id, payload }) => ({ id: String(id), fact: payload as MessageOf<typeof contactCreatedV1> }));
      return this.deps.broker.publish(contactsCreatedV1, { facts }, { messageId: randomUUID(), routingKey: contactCreatedV1.type, headers });
    }
    const contract: MessageContract | undefined = outboxContracts.get(row.message_type);
    if (!contract) return Promise.reject(new Error(`no contract for outbox type ${row.message_type}`));
    return this.deps.broker.publish(contract, row.payload, { messageId: String(row.id), headers });
  }

  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await prunePublished(this.deps.pool, KEEP_PUBLISHED_HOURS);
  }

  private async idle(ms: number): Promise<void> {
    if (!this.running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = undefined;
  }
}

/**
 * The pass's rows as messages: the `contact.created.v1` facts together, a message's worth each
 * (a lone one as a message of its own), every other row alone.
 */
function messagesOf(rows: OutboxRow[]): OutboxRow[][] {
  const created = rows.filter((row) => row.message_type === contactCreatedV1.type);
  const others = rows.filter((row) => row.message_type !== contactCreatedV1.type).map((row) => [row]);
  return [...chunksOf(created, MAX_FACTS_PER_MESSAGE), ...others];
}
