import type { Logger } from 'pino';
import {
  contactConfirmationRequestedV1,
  contactCreatedV1,
  contactDeletedV1,
  contactsCreatedV1,
  contactUpdatedV1,
  MAX_FACTS_PER_MESSAGE,
  OutboxRelay,
  productEventEnrichedV1,
  type Broker,
  type MessageOf,
  type Pool,
} from '@mailer/shared';

/**
 * Rows per pass. A pass costs two round trips and wakes the broker and its consumers, so under a
 * stream of creates a few large passes per poll cost less than many small ones: 500 instead of 100
 * took contacts' relay, automation's projection and RabbitMQ from 54-57 to 32-35 µs per create in
 * the benchmark's closed loop (docs/performance.md).
 */
const BATCH_SIZE = 500;

/**
 * The relay of contacts' facts. The outbox id is each message's id; published rows are kept a day
 * for operators to read. The creates of one pass travel together as `contacts.created.v1` (routed
 * as `contact.created.v1`, each fact under its outbox id), so a burst of sign-ups or an import
 * costs one message per pass. Enriched product events are published after commit, not through
 * here; their type stays so rows an older version wrote are still relayed.
 */
export const contactsOutboxRelay = (pool: Pool, broker: Broker, logger: Logger, pollMs: number) =>
  new OutboxRelay({
    name: 'contacts-outbox-relay',
    pool,
    broker,
    logger,
    pollMs,
    contracts: [contactCreatedV1, contactUpdatedV1, contactDeletedV1, productEventEnrichedV1, contactConfirmationRequestedV1],
    traceContext: true,
    batchSize: BATCH_SIZE,
    columns: { messageId: 'id::text', type: 'message_type' },
    keepPublishedHours: 24,
    bundle: {
      type: contactCreatedV1.type,
      max: MAX_FACTS_PER_MESSAGE,
      contract: contactsCreatedV1,
      payloadOf: (rows) => ({ facts: rows.map((row) => ({ id: row.message_id, fact: row.payload as MessageOf<typeof contactCreatedV1> })) }),
    },
  });
