import type { Pool } from '@mailer/shared';
import type { InsertedContact } from '../data-access/new-contact.repository';
import { insertContactsWithTagsAndFacts, type NewContactInput } from '../data-access/new-contacts.repository';
import { statementBatches, type StatementBatches } from './statement-batches';

/** New contacts' common case, written together while a statement is in flight. */
export type NewContactBatches = StatementBatches<NewContactInput, InsertedContact | 'taken'>;

// One per pool: every create through it (the API, an import, a form) shares its statements.
const batchesByPool = new WeakMap<Pool, NewContactBatches>();

/**
 * Contacts created while a statement is in flight go together into the next one: under load the
 * concurrent requests cost one round trip and one commit instead of one each; alone, a contact is
 * written at once. Two creates of one address are never in one statement.
 */
export function newContactBatchesOf(pool: Pool): NewContactBatches {
  let batches = batchesByPool.get(pool);
  if (!batches) {
    batches = statementBatches(
      insertContactsWithTagsAndFacts,
      (input) => [`${input.accountId}:${input.row.email.toLowerCase()}`],
      pool,
    );
    batchesByPool.set(pool, batches);
  }
  return batches;
}
