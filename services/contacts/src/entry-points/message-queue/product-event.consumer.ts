import { productEventReceivedV1, QUEUES, type ConsumerSpec } from '@mailer/shared';
import { eventContactBatches } from '../../domain/event-contact-batches';
import { upsertEventContact } from '../../domain/upsert-event-contact';
import type { ConsumerDeps } from './consumer-deps';

/**
 * product_event.received.v1: upsert the contact, publish the event enriched with it, then ack. The
 * events of one prefetch share their common-case statement (`eventContactBatches`).
 */
export function productEventConsumer(deps: ConsumerDeps): ConsumerSpec<typeof productEventReceivedV1> {
  const eventDeps = { pool: deps.pool, broker: deps.broker, eventContacts: eventContactBatches(deps.pool) };
  return {
    queue: QUEUES.contactsProductEvents.name,
    contracts: [productEventReceivedV1],
    // Room for the batches: at 16 a burst was written 15 at a time and contacts fell behind the
    // ingest; 64 keeps up (128 measured no better). A crash redelivers the unacked, the inbox drops them.
    prefetch: 64,
    handle: (message) =>
      upsertEventContact(eventDeps, `${QUEUES.contactsProductEvents.name}:${message.messageId}`, message.payload),
    onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsProductEvents.name, outcome, messageId),
  };
}
