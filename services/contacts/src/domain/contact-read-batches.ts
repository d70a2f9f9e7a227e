import { GroupCommit, onePerOwner, type Pool } from '@mailer/shared';
import { findContactsWithTags, type ContactKey } from '../data-access/contacts.repository';

/**
 * Single-contact reads asked while one statement is in flight go together into the next one, one
 * group per pool: under load a dozen GETs cost Postgres one statement and the process one write
 * and one wake-up instead of a dozen; alone, a read is sent at once. Each statement starts after
 * every read in it was asked, so a read still sees every write committed before it.
 */
export const contactReadsOf = onePerOwner(
  (pool: Pool) => new GroupCommit((keys: ContactKey[]) => findContactsWithTags(pool, keys)),
);
