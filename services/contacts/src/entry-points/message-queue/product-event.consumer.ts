import { QUEUES, type ConsumerSpec } from '@mailer/shared';
import { publishEnrichedEvent } from '../../domain/publish-enriched-event';
import type { EnrichedEvent } from '../../domain/upsert-event-contact';
import { PRODUCT_EVENT_CONTRACTS, upsertEventContacts } from '../../domain/upsert-event-contacts';
import type { ConsumerDeps } from './consumer-deps';

/**
 * product_event.received.v1 (one event) and product_events.received.v1 (the events the ingress
 * accepted while a confirm was awaited): upsert each contact, publish each event enriched with it
 * for automation (confirmed), then ack. The events of one prefetch share their common-case
 * statement (`eventContactBatchesOf`) and their enriched publishes (`publishEnrichedEvent`).
 */
export const productEventConsumer = (deps: ConsumerDeps): ConsumerSpec<(typeof PRODUCT_EVENT_CONTRACTS)[number]> => {
  const upsertDeps = { pool: deps.pool, broker: deps.broker, deliver: (event: EnrichedEvent) => publishEnrichedEvent(deps.broker, event) };
  return {
    queue: QUEUES.contactsProductEvents.name,
    contracts: [...PRODUCT_EVENT_CONTRACTS],
    // Room for the batches: at 16 a burst was written 15 at a time and contacts fell behind the
    // ingest; 64 keeps up (128 measured no better). A crash redelivers the unacked, the inbox drops them.
    prefetch: 64,
    handle: (message) => upsertEventContacts(upsertDeps, message),
    onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsProductEvents.name, outcome, messageId),
  };
};
