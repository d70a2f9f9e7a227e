import { z } from 'zod';
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

/** Published by the gateway once POST /v1/events accepted an event (the 202 waits for the confirm). */
export const productEventReceivedV1 = defineContract('product_event.received.v1', productEvent);

/**
 * How an event published alone travels (by the gateway, or by contacts putting one event of a
 * batch back in the queue): its id is the message id, which consumers deduplicate by, and the
 * request that brought it is named for the logs.
 */
export const loneProductEventOptions = (
  event: z.output<typeof productEvent>,
): { messageId: string; headers: Record<string, string> } => ({
  messageId: event.event_id,
  headers: event.request_id ? { 'x-request-id': event.request_id } : {},
});

/** How many events one `product_events.received.v1` message carries at most. */
export const MAX_EVENTS_PER_MESSAGE = 32;

/**
 * Published by the gateway instead of one message per event when events were accepted while its
 * previous publish waited for the broker's confirm: under load a quorum-queue message costs the
 * broker about as much as ten events inside one (docs/performance.md, session 34). Its message id
 * is its own; each event keeps its `event_id`, by which contacts handles it exactly once.
 */
export const productEventsReceivedV1 = defineContract(
  'product_events.received.v1',
  z.object({ events: z.array(productEvent).min(2).max(MAX_EVENTS_PER_MESSAGE) }),
);

/**
 * Re-published by the contacts service after it upserted the contact, carrying the contact, so
 * automation personalises from current details without reading another service's tables.
 */
export const productEventEnrichedV1 = defineContract(
  'product_event.enriched.v1',
  productEvent.extend({ contact: contactSnapshotSchema }),
);
