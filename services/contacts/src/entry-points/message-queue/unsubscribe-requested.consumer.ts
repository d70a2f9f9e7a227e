import { contactUnsubscribeRequestedV1, QUEUES, type ConsumerSpec } from '@mailer/shared';
import { markUnsubscribed } from '../../domain/apply-delivery-facts';
import type { ConsumerDeps } from './consumer-deps';

/** contact.unsubscribe_requested.v1 (the unsubscribe link): subscribed becomes false. */
export const unsubscribeRequestedConsumer = (
  deps: ConsumerDeps,
): ConsumerSpec<typeof contactUnsubscribeRequestedV1> => ({
  queue: QUEUES.contactsUnsubscribes.name,
  contracts: [contactUnsubscribeRequestedV1],
  prefetch: 16,
  handle: (message) =>
    markUnsubscribed(deps.pool, `${QUEUES.contactsUnsubscribes.name}:${message.messageId}`, message.payload),
  onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsUnsubscribes.name, outcome, messageId),
});
