import type { ContactRow } from '../domain/contact';
import type { Queryable } from './queryable';

export interface ContactFilter {
  accountId: number;
  q?: string | undefined;
  subscribed?: boolean | undefined;
  bounced?: boolean | undefined;
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
