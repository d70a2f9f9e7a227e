import type { ContactRow } from '../domain/contact';
import type { Queryable } from './queryable';

export interface ContactFilter {
  accountId: number;
  q?: string | undefined;
  subscribed?: boolean | undefined;
  bounced?: boolean | undefined;
  /** A tag name, matched case-insensitively like tags themselves. */
  tag?: string | undefined;
}

/** `%` and `_` in a search are the characters themselves, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

function whereClause(filter: ContactFilter): { sql: string; values: unknown[] } {
  const conditions = ['account_id = $1'];
  const values: unknown[] = [filter.accountId];
  if (filter.q) {
    // lower(email) LIKE matches the trigram index on lower(email).
    values.push(`%${escapeLike(filter.q.toLowerCase())}%`);
    conditions.push(`lower(email) LIKE $${values.length}`);
  }
  if (filter.subscribed !== undefined) {
    values.push(filter.subscribed);
    conditions.push(`subscribed = $${values.length}`);
  }
  if (filter.bounced !== undefined) {
    values.push(filter.bounced);
    conditions.push(`bounced = $${values.length}`);
  }
  if (filter.tag !== undefined) {
    // The tag's row by its unique (account_id, lower(name)) index, then its links by (tag_id, contact_id).
    values.push(filter.tag);
    conditions.push(
      `id IN (SELECT ct.contact_id FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id
               WHERE t.account_id = $1 AND lower(t.name) = lower($${values.length}))`,
    );
  }
  return { sql: conditions.join(' AND '), values };
}

export async function countContacts(db: Queryable, filter: ContactFilter): Promise<number> {
  const { sql, values } = whereClause(filter);
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::bigint AS count FROM contacts WHERE ${sql}`,
    values,
  );
  return rows[0]?.count ?? 0;
}

/**
 * Newest first: id descending is stable, unlike created_at, which can tie. The page's ids are found
 * first (an index-only walk past the offset), then only those rows are read: deep pages stay cheap.
 */
export async function listContacts(
  db: Queryable,
  filter: ContactFilter,
  limit: number,
  offset: number,
): Promise<ContactRow[]> {
  const { sql, values } = whereClause(filter);
  values.push(limit, offset);
  const { rows } = await db.query<ContactRow>(
    `SELECT id, account_id, email, first_name, last_name, subscribed, bounced, source, custom_properties, created_at, updated_at
     FROM contacts WHERE id IN (
       SELECT id FROM contacts WHERE ${sql} ORDER BY id DESC LIMIT $${values.length - 1} OFFSET $${values.length}
     ) ORDER BY id DESC`,
    values,
  );
  return rows;
}

/**
 * One slice of the filtered list for an export: newest first, the ids below `beforeId` (keyset, so
 * the 1000th slice costs what the first does, unlike a deep OFFSET).
 */
export async function listContactsBefore(
  db: Queryable,
  filter: ContactFilter,
  beforeId: number | undefined,
  limit: number,
): Promise<ContactRow[]> {
  const { sql, values } = whereClause(filter);
  const conditions = [sql];
  if (beforeId !== undefined) {
    values.push(beforeId);
    conditions.push(`id < $${values.length}`);
  }
  values.push(limit);
  const { rows } = await db.query<ContactRow>(
    `SELECT id, account_id, email, first_name, last_name, subscribed, bounced, source, custom_properties, created_at, updated_at
     FROM contacts WHERE ${conditions.join(' AND ')} ORDER BY id DESC LIMIT $${values.length}`,
    values,
  );
  return rows;
}

export interface ContactCounts {
  total: number;
  subscribed: number;
  createdSince: number;
}

/** The dashboard's figures in one pass over the account's rows. */
export async function countContactFigures(db: Queryable, accountId: number, since: Date): Promise<ContactCounts> {
  const { rows } = await db.query<{ total: string; subscribed: string; created_since: string }>(
    `SELECT count(*) AS total, count(*) FILTER (WHERE subscribed) AS subscribed,
            count(*) FILTER (WHERE created_at >= $2) AS created_since
       FROM contacts WHERE account_id = $1`,
    [accountId, since],
  );
  const row = rows[0]!;
  return { total: Number(row.total), subscribed: Number(row.subscribed), createdSince: Number(row.created_since) };
}

/** The custom property names used by the filtered contacts, sorted (an export's columns). */
export async function propertyKeysOf(db: Queryable, filter: ContactFilter, limit: number): Promise<string[]> {
  const { sql, values } = whereClause(filter);
  values.push(limit);
  const { rows } = await db.query<{ key: string }>(
    `SELECT DISTINCT jsonb_object_keys(custom_properties) AS key FROM contacts WHERE ${sql} ORDER BY key LIMIT $${values.length}`,
    values,
  );
  return rows.map((row) => row.key);
}
