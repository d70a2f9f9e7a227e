import { productEventReceivedV1, QUEUES, type ConsumerSpec } from '@mailer/shared';
import { upsertEventContact } from '../../domain/upsert-event-contact';
import type { ConsumerDeps } from './consumer-deps';

/** product_event.received.v1: upsert the contact, publish the event enriched with it, then ack. */
export const productEventConsumer = (deps: ConsumerDeps): ConsumerSpec<typeof productEventReceivedV1> => ({
  queue: QUEUES.contactsProductEvents.name,
  contracts: [productEventReceivedV1],
  prefetch: 16,
  handle: (message) =>
    upsertEventContact(
      deps,
      `${QUEUES.contactsProductEvents.name}:${message.messageId}`,
      message.payload,
    ),
  onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsProductEvents.name, outcome, messageId),
});
