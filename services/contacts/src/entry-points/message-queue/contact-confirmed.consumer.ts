import { contactConfirmedV1, QUEUES, type ConsumerSpec } from '@mailer/shared';
import { confirmContact } from '../../domain/double-opt-in';
import type { ConsumerDeps } from './consumer-deps';

/** contact.confirmed.v1 (the double opt-in link): a pending contact becomes subscribed. */
export const contactConfirmedConsumer = (deps: ConsumerDeps): ConsumerSpec<typeof contactConfirmedV1> => ({
  queue: QUEUES.contactsConfirmations.name,
  contracts: [contactConfirmedV1],
  prefetch: 16,
  handle: async (message) => {
    await confirmContact(deps.pool, `${QUEUES.contactsConfirmations.name}:${message.messageId}`, message.payload);
  },
  onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsConfirmations.name, outcome, messageId),
});
