import {
  handleEachAlone,
  loneProductEventOptions,
  productEventReceivedV1,
  productEventsReceivedV1,
  QUEUES,
  type Broker,
  type ReceivedMessage,
} from '@mailer/shared';
import { notMigratedAsNotReady } from '../data-access/not-migrated';
import { upsertEventContact, type EventContactDeps, type ProductEvent } from './upsert-event-contact';

/** What `contacts.product-events` holds: one event, or the events the gateway accepted while a confirm was awaited. */
export const PRODUCT_EVENT_CONTRACTS = [productEventReceivedV1, productEventsReceivedV1] as const;
export type ProductEventMessage = ReceivedMessage<(typeof PRODUCT_EVENT_CONTRACTS)[number]>;

/**
 * The inbox key of an event: the queue's name and its id (a lone event's message id is its event
 * id). The same whichever service consumes the queue, so a redelivery that reaches the other one
 * (a rolling upgrade switching `PRODUCT_EVENTS_UPSERTED_BY`) finds the event applied.
 */
const inboxKeyOf = (eventId: string) => `${QUEUES.contactsProductEvents.name}:${eventId}`;

/** One event, with contacts' database not migrated yet read as an outage (retried in place, not dead-lettered). */
async function upsertOne(deps: EventContactDeps, messageKey: string | null, event: ProductEvent): Promise<void> {
  try {
    await upsertEventContact(deps, messageKey, event);
  } catch (error) {
    throw notMigratedAsNotReady(error);
  }
}

/**
 * One event the gateway is accepting, upserted before its 202 (`PRODUCT_EVENTS_UPSERTED_BY=gateway`):
 * the same statements as if it had come through the queue, so the events of the requests in flight
 * share their statement, and `deliver` runs once the contact is committed. Without an inbox row:
 * nothing redelivers a request (a client's retry is another event, or a replay of the first answer
 * under its Idempotency-Key), so an event of a known contact writes nothing and waits for no commit.
 */
export function upsertAcceptedEvent(deps: EventContactDeps, event: ProductEvent): Promise<void> {
  return upsertOne(deps, null, event);
}

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
  if (!('events' in payload)) return upsertOne(deps, inboxKeyOf(message.messageId), payload);
  return handleEachAlone(
    payload.events,
    (event) => upsertOne(deps, inboxKeyOf(event.event_id), event),
    (event) => deps.broker.publish(productEventReceivedV1, event, loneProductEventOptions(event)),
  );
}
