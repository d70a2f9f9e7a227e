import {
  handleEachAlone,
  loneProductEventOptions,
  productEventReceivedV1,
  productEventsReceivedV1,
  QUEUES,
  type Broker,
  type ReceivedMessage,
} from '@mailer/shared';
import { upsertEventContact, type EventContactDeps } from './upsert-event-contact';

/** What `contacts.product-events` holds: one event, or the events the ingress accepted while a confirm was awaited. */
export const PRODUCT_EVENT_CONTRACTS = [productEventReceivedV1, productEventsReceivedV1] as const;
export type ProductEventMessage = ReceivedMessage<(typeof PRODUCT_EVENT_CONTRACTS)[number]>;

/**
 * The inbox key of an event: the queue's name and the event's id (a lone event's message id is its
 * event id), so an event applied from a batch is known when it comes again alone, and the reverse.
 */
const inboxKeyOf = (eventId: string) => `${QUEUES.contactsProductEvents.name}:${eventId}`;

/**
 * A message of `contacts.product-events`: each event's contact upserted and the event delivered
 * enriched (`upsertEventContact`). The events of a batch are each handled as if they had come
 * alone (`handleEachAlone`), under their own inbox keys, sharing the statements of
 * `upsertEventContact` as those of one prefetch do; a retried batch delivers the enriched events
 * of those done again with the same ids, which automation's inbox drops. One that fails on its own
 * goes back to the queue as `product_event.received.v1`.
 */
export function upsertEventContacts(deps: EventContactDeps & { broker: Broker }, message: ProductEventMessage): Promise<void> {
  const { payload } = message;
  if (!('events' in payload)) return upsertEventContact(deps, inboxKeyOf(message.messageId), payload);
  return handleEachAlone(
    payload.events,
    (event) => upsertEventContact(deps, inboxKeyOf(event.event_id), event),
    (event) => deps.broker.publish(productEventReceivedV1, event, loneProductEventOptions(event)),
  );
}
