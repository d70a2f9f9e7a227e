import { contactBouncedV1, QUEUES, type ConsumerSpec } from '@mailer/shared';
import { markBounced } from '../../domain/apply-delivery-facts';
import type { ConsumerDeps } from './consumer-deps';

/** contact.bounced.v1 (from automation): the contact is marked bounced. */
export const contactBouncedConsumer = (deps: ConsumerDeps): ConsumerSpec<typeof contactBouncedV1> => ({
  queue: QUEUES.contactsBounces.name,
  contracts: [contactBouncedV1],
  prefetch: 16,
  handle: (message) =>
    markBounced(deps.pool, `${QUEUES.contactsBounces.name}:${message.messageId}`, message.payload),
  onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsBounces.name, outcome, messageId),
});
