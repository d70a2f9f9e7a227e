import type { Queryable } from './queryable';

/** Tag names in the order every writer inserts them, so two writers never wait on each other in a circle. */
export const inLockOrder = (names: readonly string[]): string[] =>
  [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));

/**
 * Finds or creates each tag by name (case-insensitively) and links it to the contact; returns the
 * names newly linked, in `tagsOf`'s order (so a new contact's tags need no second read). ON
 * CONFLICT makes concurrent writers of one new tag agree on one row, and the sorted order keeps two
 * transactions from locking the same tags in opposite orders.
 */
export async function attachTags(
  db: Queryable,
  accountId: number,
  contactId: number,
  names: readonly string[],
): Promise<string[]> {
  if (names.length === 0) return [];
  const sorted = inLockOrder(names);
  await db.query({
    name: 'tags.insert-missing',
    text: `INSERT INTO tags (account_id, name) SELECT $1, name FROM unnest($2::text[]) WITH ORDINALITY AS t(name, position)
     ORDER BY position ON CONFLICT (account_id, lower(name)) DO NOTHING`,
    values: [accountId, sorted],
  });
  const { rows } = await db.query<{ name: string }>({
    name: 'tags.link',
    text: `WITH wanted AS (
       SELECT id, name FROM tags WHERE account_id = $1 AND lower(name) = ANY(SELECT lower(n) FROM unnest($2::text[]) AS n)
     ), linked AS (
       INSERT INTO contact_tags (contact_id, tag_id) SELECT $3, id FROM wanted ON CONFLICT DO NOTHING RETURNING tag_id
     )
     SELECT wanted.name FROM linked JOIN wanted ON wanted.id = linked.tag_id
     ORDER BY lower(wanted.name) COLLATE "C", wanted.name COLLATE "C"`,
    values: [accountId, sorted, contactId],
  });
  return rows.map((row) => row.name);
}

/** Each contact's tag names, sorted by name (case-insensitively, then by byte order for ties). */
export async function tagsOf(db: Queryable, contactIds: readonly number[]): Promise<Map<number, string[]>> {
  const tags = new Map<number, string[]>(contactIds.map((id) => [id, []]));
  if (contactIds.length === 0) return tags;
  const { rows } = await db.query<{ contact_id: number; name: string }>(
    `SELECT ct.contact_id, t.name FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id
     WHERE ct.contact_id = ANY($1::bigint[]) ORDER BY lower(t.name) COLLATE "C", t.name COLLATE "C"`,
    [contactIds],
  );
  for (const row of rows) tags.get(row.contact_id)?.push(row.name);
  return tags;
}

/** Unlinks the tag (by name, case-insensitively) from the contact; true when it was linked. */
export async function detachTag(db: Queryable, accountId: number, contactId: number, name: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM contact_tags WHERE contact_id = $2
       AND tag_id = (SELECT id FROM tags WHERE account_id = $1 AND lower(name) = lower($3))`,
    [accountId, contactId, name],
  );
  return (rowCount ?? 0) > 0;
}
