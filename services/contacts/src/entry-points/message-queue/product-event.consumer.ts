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
    prefetch: 16,
    handle: (message) =>
      upsertEventContact(eventDeps, `${QUEUES.contactsProductEvents.name}:${message.messageId}`, message.payload),
    onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsProductEvents.name, outcome, messageId),
  };
}
