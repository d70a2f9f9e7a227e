import type { Pool } from '@mailer/shared';
import {
  createOrReadUnchangedContactsForEvents,
  type EventContact,
  type EventContactInput,
} from '../data-access/event-contact.repository';
import { statementBatches, type StatementBatches } from './statement-batches';

/** Product events' common case, written together while a statement is in flight. */
export type EventContactBatches = StatementBatches<EventContactInput, EventContact>;

/**
 * Product events handled while a statement is in flight go together into the next one: under load
 * a prefetch's worth of events costs one round trip and one commit instead of one each. Two events
 * of one message or one address are never in one statement.
 */
export const eventContactBatches = (pool: Pool): EventContactBatches =>
  statementBatches(
    createOrReadUnchangedContactsForEvents,
    (event) => [`message:${event.messageKey}`, `address:${event.accountId}:${event.email.toLowerCase()}`],
    pool,
  );
