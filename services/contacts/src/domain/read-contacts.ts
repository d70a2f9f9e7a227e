import { notFound, type Pool } from '@mailer/shared';
import { countContacts, listContacts, type ContactFilter } from '../data-access/contact-list.repository';
import { findContact } from '../data-access/contacts.repository';
import { tagsOf } from '../data-access/tags.repository';
import { withTags, type Contact } from './contact';
import { contactReadsOf } from './contact-read-batches';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export interface ContactPage {
  contacts: Contact[];
  page: number;
  perPage: number;
  totalCount: number;
  totalPages: number;
}

export async function getContact(pool: Pool, accountId: number, id: number): Promise<Contact> {
  const contact = await contactReadsOf(pool).add({ accountId, id });
  if (!contact) throw notFound('contact');
  return contact;
}

/** One page, newest first; a page past the end is empty with the true totals. */
export async function listContactPage(
  pool: Pool,
  filter: ContactFilter,
  page: number,
  perPage: number,
): Promise<ContactPage> {
  const limit = Math.min(perPage, MAX_PER_PAGE);
  const offset = (page - 1) * limit;
  // Count and page in parallel; an offset beyond any real table is past the end without asking.
  const [totalCount, rows] = await Promise.all([
    countContacts(pool, filter),
    Number.isSafeInteger(offset) ? listContacts(pool, filter, limit, offset) : Promise.resolve([]),
  ]);
  const tags = await tagsOf(
    pool,
    rows.map((row) => row.id),
  );
  return {
    contacts: rows.map((row) => withTags(row, tags.get(row.id))),
    page,
    perPage: limit,
    totalCount,
    totalPages: Math.ceil(totalCount / limit),
  };
}

/** 404 before anything else: a contact of another account is missing, whatever the request holds. */
export async function assertContactExists(pool: Pool, accountId: number, id: number): Promise<void> {
  if (!(await findContact(pool, accountId, id))) throw notFound('contact');
}
