import { z } from 'zod';
import { triggerRoutingKey } from '../messaging/topology';
import { contactSnapshotSchema } from './contact-facts';
import { defineContract } from './message-contract';

export const eventPropertyValue = z.union([z.string(), z.number(), z.boolean(), z.null()]).or(z.unknown());

const productEvent = z.object({
  event_id: z.string().uuid(),
  account_id: z.number().int().positive(),
  event: z.string().min(1).max(100),
  email: z.string(),
  properties: z.record(z.string(), z.unknown()),
  received_at: z.string(),
  request_id: z.string().optional(),
});

/** Published by the events service once POST /v1/events accepted an event (the 202 waits for the confirm). */
export const productEventReceivedV1 = defineContract('product_event.received.v1', productEvent);

/**
 * How an event published alone travels (by the events service, or by contacts putting one event of a
 * batch back in the queue): its id is the message id, which consumers deduplicate by, and the
 * request that brought it is named for the logs.
 */
export const loneProductEventOptions = (
  event: z.output<typeof productEvent>,
): { messageId: string; headers: Record<string, string> } => ({
  messageId: event.event_id,
  headers: event.request_id ? { 'x-request-id': event.request_id } : {},
});

/** How many events one batch message (`product_events.received.v1`, `product_events.enriched.v1`) carries at most. */
export const MAX_EVENTS_PER_MESSAGE = 32;

/**
 * Published by the events service instead of one message per event when events were accepted while its
 * previous publish waited for the broker's confirm: under load a quorum-queue message costs the
 * broker about as much as ten events inside one (docs/performance.md). Its message id
 * is its own; each event keeps its `event_id`, by which contacts handles it exactly once.
 */
export const productEventsReceivedV1 = defineContract(
  'product_events.received.v1',
  z.object({ events: z.array(productEvent).min(2).max(MAX_EVENTS_PER_MESSAGE) }),
);

const enrichedEvent = productEvent.extend({ contact: contactSnapshotSchema });

/**
 * Re-published by the contacts service after it upserted the contact, carrying the contact, so
 * automation personalises from current details without reading another service's tables.
 */
export const productEventEnrichedV1 = defineContract('product_event.enriched.v1', enrichedEvent);

/**
 * The id an enriched event has alone, which automation's inbox keys its enrolment by, however the
 * event reached it (alone or in a batch).
 */
export const enrichedEventMessageId = (event: { event_id: string }) => `enriched:${event.event_id}`;

/**
 * How an enriched event published alone travels (by contacts, or by automation putting one event
 * of a batch back in the queue): its message id derives from the event's, so a second publish of
 * it is dropped by automation's inbox, and its routing key names its trigger (account and event
 * name), which automation binds while a workflow listens.
 */
export const loneEnrichedEventOptions = (
  event: { event_id: string; account_id: number; event: string },
  // A caller that has the key already (it grouped events by it) saves hashing it again.
  routingKey = triggerRoutingKey(event.account_id, event.event),
) => ({ messageId: enrichedEventMessageId(event), routingKey });

/**
 * Published by contacts instead of one message per event when enriched events of one trigger were
 * ready while its previous publish waited for the broker's confirm, with the routing key they
 * share (`triggerRoutingKey`), so it reaches automation exactly when a lone one would. Most of
 * them find no queue (no workflow triggers on a page view), and routing one costs the broker about
 * what routing ten events inside one does. Its message id is its own; automation handles each event
 * under the id it would have had alone (`loneEnrichedEventOptions`).
 */
export const productEventsEnrichedV1 = defineContract(
  'product_events.enriched.v1',
  z.object({ events: z.array(enrichedEvent).min(2).max(MAX_EVENTS_PER_MESSAGE) }),
);
