import { createOrReadUnchangedContactsForEvents } from '../data-access/event-contact.repository';
import { statementBatchesPerPool } from './statement-batches';

/**
 * Product events handled while a statement is in flight go together into the next one: under load
 * a prefetch's worth of events costs one round trip and one commit instead of one each. Two events
 * of one message or one address are never in one statement.
 */
export const eventContactBatchesOf = statementBatchesPerPool(createOrReadUnchangedContactsForEvents, (event) => [
  `message:${event.messageKey}`,
  `address:${event.accountId}:${event.email.toLowerCase()}`,
]);
