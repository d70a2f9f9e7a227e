import { GroupCommit, isDependencyUnavailable, type Pool } from '@mailer/shared';
import {
  createOrReadUnchangedContactsForEvents,
  type EventContact,
  type EventContactInput,
} from '../data-access/event-contact.repository';

/** What the statement made of one event: its contact (undefined: take the general path), or the error to retry it for. */
export type EventContactOutcome = { contact: EventContact | undefined } | { error: unknown };

/** Product events' common case, written together while a statement is in flight (see `eventContactBatches`). */
export type EventContactBatches = GroupCommit<EventContactInput, EventContactOutcome>;

/**
 * The first event of each message and of each address in the batch: the statement cannot see its
 * own inserts, so a second event for an address it creates goes the general path, after it commits.
 */
function firstOfTheirKind(events: readonly EventContactInput[]): boolean[] {
  const messages = new Set<string>();
  const addresses = new Set<string>();
  return events.map((event) => {
    const address = `${event.accountId}:${event.email.toLowerCase()}`;
    if (messages.has(event.messageKey) || addresses.has(address)) return false;
    messages.add(event.messageKey);
    addresses.add(address);
    return true;
  });
}

async function alone(pool: Pool, event: EventContactInput): Promise<EventContactOutcome> {
  try {
    return { contact: (await createOrReadUnchangedContactsForEvents(pool, [event]))[0] };
  } catch (error) {
    return { error };
  }
}

async function writeBatch(pool: Pool, events: EventContactInput[]): Promise<EventContactOutcome[]> {
  const inStatement = firstOfTheirKind(events);
  const batch = events.filter((_, index) => inStatement[index]);
  try {
    const contacts = (await createOrReadUnchangedContactsForEvents(pool, batch)).values();
    return inStatement.map((included) => ({ contact: included ? contacts.next().value : undefined }));
  } catch (error) {
    // The statement wrote nothing. One event may be what failed it: each is tried alone, so that
    // only its own message goes back to the queue and the others are not retried with it. Not when
    // Postgres is unreachable: each would wait out its own connection timeout before the batch
    // went back to the queue.
    if (batch.length === 1 || isDependencyUnavailable(error))
      return inStatement.map((included) => (included ? { error } : { contact: undefined }));
    const outcomes: EventContactOutcome[] = [];
    for (const [index, event] of events.entries())
      outcomes.push(inStatement[index] ? await alone(pool, event) : { contact: undefined });
    return outcomes;
  }
}

/**
 * Product events handled while a statement is in flight go together into the next one: under load
 * a prefetch's worth of events costs one round trip and one commit instead of one each; alone, an
 * event is written at once.
 */
export const eventContactBatches = (pool: Pool): EventContactBatches =>
  new GroupCommit((events) => writeBatch(pool, events));
