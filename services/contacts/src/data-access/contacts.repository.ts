import { isUniqueViolation } from '@mailer/shared';
import { emailTaken } from '../domain/contact.errors';
import type { ContactRow, CustomProperties } from '../domain/contact';
import { inInputOrder } from './input-order';
import type { Queryable } from './queryable';

/** A contact row as `ContactRow` reads it. */
export const CONTACT_COLUMNS = `id, account_id, email, first_name, last_name, subscribed, bounced, source, custom_properties, confirmation,
  created_at, updated_at`;

/** The tag names of the contact row `alias`, sorted as the API lists them (an empty array for none). */
export const tagsOfContact = (alias: string) =>
  `ARRAY(SELECT t.name FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id
          WHERE ct.contact_id = ${alias}.id ORDER BY lower(t.name) COLLATE "C", t.name COLLATE "C")`;

/** The unique index is the arbiter of "taken", also between concurrent requests. */
const EMAIL_KEY = 'contacts_account_email_key';

export interface NewContactRow {
  email: string;
  first_name: string | null;
  last_name: string | null;
  subscribed: boolean;
  source: string | null;
  custom_properties: CustomProperties;
}

export type ContactChanges = Partial<NewContactRow & { bounced: boolean }>;

/** $1-$7 of a contact insert: account, email, names, subscribed, source, custom properties. */
export const newContactValues = (accountId: number, row: NewContactRow): unknown[] => [
  accountId,
  row.email,
  row.first_name,
  row.last_name,
  row.subscribed,
  row.source,
  JSON.stringify(row.custom_properties),
];

/** A unique violation of the address is the domain's "taken"; anything else is rethrown as it is. */
export const rethrowTaken = (error: unknown): never => {
  if (isUniqueViolation(error, EMAIL_KEY)) throw emailTaken();
  throw error;
};

export async function insertContact(
  db: Queryable,
  accountId: number,
  row: NewContactRow,
): Promise<ContactRow> {
  const { rows } = await db
    .query<ContactRow>({
      name: 'contacts.insert',
      text: `INSERT INTO contacts (account_id, email, first_name, last_name, subscribed, source, custom_properties)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${CONTACT_COLUMNS}`,
      values: newContactValues(accountId, row),
    })
    .catch(rethrowTaken);
  return rows[0]!;
}

/** Inserts unless the address exists in the account; undefined then (the caller reads the winner). */
export async function insertContactIfAbsent(db: Queryable, accountId: number, row: NewContactRow) {
  const { rows } = await db.query<ContactRow>(
    `INSERT INTO contacts (account_id, email, first_name, last_name, subscribed, source, custom_properties)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (account_id, lower(email)) DO NOTHING RETURNING ${CONTACT_COLUMNS}`,
    newContactValues(accountId, row),
  );
  return rows[0];
}

export async function findContact(
  db: Queryable,
  accountId: number,
  id: number,
  options: { forUpdate?: boolean } = {},
) {
  const { rows } = await db.query<ContactRow>(
    `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE account_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [accountId, id],
  );
  return rows[0];
}

/** A contact asked for by its account and id: the account is part of the key, so another account's id finds nothing. */
export interface ContactKey {
  accountId: number;
  id: number;
}

/**
 * The contacts with their tag names (sorted as `tagsOf` sorts them) for many keys in one named
 * statement, answered in the keys' order (undefined: no such contact of that account). Each lookup is a lateral subquery on the primary
 * key, so the plan is one index probe per key whatever statistics it was made with.
 */
export async function findContactsWithTags(db: Queryable, keys: readonly ContactKey[]) {
  const { rows } = await db.query<ContactRow & { tags: string[]; n: string }>({
    name: 'contacts.find-many-with-tags',
    text: `SELECT i.n, c.*
       FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS i(account_id, contact_id, n),
            LATERAL (SELECT ${CONTACT_COLUMNS}, ${tagsOfContact('contacts')} AS tags
                       FROM contacts WHERE contacts.id = i.contact_id AND contacts.account_id = i.account_id) c`,
    values: [keys.map((key) => key.accountId), keys.map((key) => key.id)],
  });
  return inInputOrder(rows, keys.length, ({ n: _n, ...contact }) => contact, undefined);
}

export async function findContactByEmail(
  db: Queryable,
  accountId: number,
  email: string,
  options: { forUpdate?: boolean } = {},
) {
  const { rows } = await db.query<ContactRow>(
    `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE account_id = $1 AND lower(email) = lower($2)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [accountId, email],
  );
  return rows[0];
}

const UPDATABLE = [
  'email',
  'first_name',
  'last_name',
  'subscribed',
  'bounced',
  'source',
  'custom_properties',
] as const;

/** Writes the given columns (a fixed list, never names from input) and stamps updated_at. */
export async function updateContact(
  db: Queryable,
  accountId: number,
  id: number,
  changes: ContactChanges,
): Promise<ContactRow> {
  const sets: string[] = [];
  const values: unknown[] = [accountId, id];
  for (const column of UPDATABLE) {
    const value = changes[column];
    if (value === undefined) continue;
    values.push(column === 'custom_properties' ? JSON.stringify(value) : value);
    sets.push(`${column} = $${values.length}`);
  }
  sets.push('updated_at = now()');
  const { rows } = await db
    .query<ContactRow>(
      `UPDATE contacts SET ${sets.join(', ')} WHERE account_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`,
      values,
    )
    .catch(rethrowTaken);
  return rows[0]!;
}

export async function deleteContact(db: Queryable, accountId: number, id: number) {
  const { rows } = await db.query<{ id: number; email: string }>(
    'DELETE FROM contacts WHERE account_id = $1 AND id = $2 RETURNING id, email',
    [accountId, id],
  );
  return rows[0];
}
