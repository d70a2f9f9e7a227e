import { insertContactsWithTagsAndFacts } from '../data-access/new-contacts.repository';
import { statementBatchesPerPool } from './statement-batches';

/**
 * Contacts created while a statement is in flight go together into the next one (the API, an
 * import, a form alike): under load the concurrent requests cost one round trip and one commit
 * instead of one each. Two creates of one address are never in one statement.
 */
export const newContactBatchesOf = statementBatchesPerPool(insertContactsWithTagsAndFacts, (input) => [
  `${input.accountId}:${input.row.email.toLowerCase()}`,
]);
