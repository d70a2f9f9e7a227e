import { productEventReceivedV1, QUEUES, type ConsumerSpec } from '@mailer/shared';
import { upsertEventContact } from '../../domain/upsert-event-contact';
import type { ConsumerDeps } from './consumer-deps';

/**
 * product_event.received.v1: upsert the contact, publish the event enriched with it, then ack. The
 * events of one prefetch share their common-case statement (`eventContactBatchesOf`).
 */
export const productEventConsumer = (deps: ConsumerDeps): ConsumerSpec<typeof productEventReceivedV1> => ({
  queue: QUEUES.contactsProductEvents.name,
  contracts: [productEventReceivedV1],
  // Room for the batches: at 16 a burst was written 15 at a time and contacts fell behind the
  // ingest; 64 keeps up (128 measured no better). A crash redelivers the unacked, the inbox drops them.
  prefetch: 64,
  handle: (message) =>
    upsertEventContact(deps, `${QUEUES.contactsProductEvents.name}:${message.messageId}`, message.payload),
  onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsProductEvents.name, outcome, messageId),
});
