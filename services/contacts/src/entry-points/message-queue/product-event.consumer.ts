import { productEventReceivedV1, productEventsReceivedV1, QUEUES, type ConsumerSpec, type MessageOf } from '@mailer/shared';
import { upsertEventContact } from '../../domain/upsert-event-contact';
import { upsertEventContacts } from '../../domain/upsert-event-contacts';
import type { ConsumerDeps } from './consumer-deps';

type ProductEvent = MessageOf<typeof productEventReceivedV1>;

/** An event's inbox key: its id, whether it came alone (the message id is the event id) or in a batch. */
const inboxKeyOf = (event: ProductEvent) => `${QUEUES.contactsProductEvents.name}:${event.event_id}`;

/**
 * product_event.received.v1 (one event) and product_events.received.v1 (the events the gateway
 * accepted while a confirm was awaited): upsert each contact, publish each event enriched with it,
 * then ack. The events of one prefetch share their common-case statement (`eventContactBatchesOf`).
 */
export const productEventConsumer = (deps: ConsumerDeps): ConsumerSpec<typeof productEventReceivedV1 | typeof productEventsReceivedV1> => ({
  queue: QUEUES.contactsProductEvents.name,
  contracts: [productEventReceivedV1, productEventsReceivedV1],
  // Room for the batches: at 16 a burst was written 15 at a time and contacts fell behind the
  // ingest; 64 keeps up (128 measured no better). A crash redelivers the unacked, the inbox drops them.
  prefetch: 64,
  handle: (message) =>
    'events' in message.payload
      ? upsertEventContacts(deps, inboxKeyOf, message.payload.events)
      : upsertEventContact(deps, `${QUEUES.contactsProductEvents.name}:${message.messageId}`, message.payload),
  onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsProductEvents.name, outcome, messageId),
});
