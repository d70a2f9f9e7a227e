import { contactCreatedV1, currentTraceparent, emailKey, type MessageOf } from '@mailer/shared';
import type { ContactRow, SuppressionReason } from '../domain/contact';
import { CONTACT_COLUMNS, newContactValues, rethrowTaken, type NewContactRow } from './contacts.repository';
import { ISO_MILLIS_UTC } from './outbox.repository';
import type { Queryable } from './queryable';
import { inLockOrder } from './tags.repository';

export interface InsertedContact {
  contact: ContactRow & { tags: string[] };
  /** The reason of the suppression the statement lifted, if it lifted one. */
  lifted: SuppressionReason | null;
}

const NOT_NULL_VIOLATION = '23502';

/**
 * A tag created by a transaction that committed after this statement began: the statement can
 * neither insert it (ON CONFLICT) nor see it, so that tag's link has no tag id and its NOT NULL
 * refuses it, which undoes the whole statement.
 */
export const isTagCreatedMeanwhile = (error: unknown): boolean => {
  const pgError = error as { code?: string; table?: string; column?: string } | null;
  return (
    pgError?.code === NOT_NULL_VIOLATION && pgError.table === 'contact_tags' && pgError.column === 'tag_id'
  );
};

/**
 * A new contact in one statement (one round trip, atomic without BEGIN/COMMIT): the row; its tags
 * (distinct case-insensitively) found or created by name, in `attachTags`' order, and linked; the
 * lift of its address's standing suppression when `liftedBy` names who lifts it; and the
 * `contact.created.v1` fact. `fact` is the payload validated in JS; the statement fills in the id,
 * the tags as stored (an existing tag keeps its spelling), the suppression and the creation time.
 * The contact is written before its tags, as the transaction path writes them, so the two paths
 * take locks in one order. An address already taken raises `CONTACT.EMAIL_TAKEN`. Resolves to
 * undefined, having written nothing, when a tag was created meanwhile by another transaction: the
 * caller takes the transaction path, whose later statements see that tag.
 */
export async function insertContactWithTagsAndFact(
  db: Queryable,
  accountId: number,
  row: NewContactRow,
  tags: readonly string[],
  liftedBy: string | null,
  fact: MessageOf<typeof contactCreatedV1>,
): Promise<InsertedContact | undefined> {
  const result = await db
    .query<ContactRow & { tags: string[]; lifted: SuppressionReason | null }>({
      name: 'contacts.insert-with-tags-and-fact',
      text: `WITH created AS (
       INSERT INTO contacts (account_id, email, first_name, last_name, subscribed, source, custom_properties)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${CONTACT_COLUMNS}),
     lifted AS (
       UPDATE suppressions SET lifted_at = now(), lifted_by = $9
        WHERE $9::text IS NOT NULL AND account_id = $1 AND address = $10 AND lifted_at IS NULL
          AND EXISTS (SELECT 1 FROM created)
       RETURNING reason),
     standing AS (
       -- A lift leaves nothing standing.
       SELECT reason FROM suppressions WHERE $9::text IS NULL AND account_id = $1 AND address = $10 AND lifted_at IS NULL),
     given AS (
       SELECT name, position FROM unnest($8::text[]) WITH ORDINALITY AS given(name, position)),
     new_tags AS (
       INSERT INTO tags (account_id, name)
       SELECT $1, name FROM given WHERE EXISTS (SELECT 1 FROM created) ORDER BY position
       ON CONFLICT (account_id, lower(name)) DO NOTHING
       RETURNING id, name),
     found_tags AS (
       SELECT id, name FROM new_tags
       UNION ALL
       SELECT id, name FROM tags WHERE account_id = $1 AND lower(name) IN (SELECT lower(name) FROM given)),
     links AS (
       INSERT INTO contact_tags (contact_id, tag_id)
       SELECT created.id, found_tags.id
         FROM created CROSS JOIN (SELECT DISTINCT lower(name) AS key FROM given) AS wanted
         LEFT JOIN found_tags ON lower(found_tags.name) = wanted.key),
     tag_names AS (
       SELECT coalesce(array_agg(name ORDER BY lower(name) COLLATE "C", name COLLATE "C"), '{}') AS tags FROM found_tags),
     fact AS (
       INSERT INTO outbox (message_type, payload, trace_context)
       SELECT $11, jsonb_set(jsonb_set(jsonb_set(jsonb_set($12::jsonb, '{contact,id}', to_jsonb(created.id)),
                              '{contact,tags}', to_jsonb(tag_names.tags)),
                            '{contact,suppression}', coalesce((SELECT to_jsonb(reason) FROM standing), 'null'::jsonb)),
                          '{occurred_at}', to_jsonb(${ISO_MILLIS_UTC('created.created_at')})),
              $13
         FROM created, tag_names)
     SELECT created.*, tag_names.tags, (SELECT reason FROM lifted) AS lifted FROM created, tag_names`,
      values: [
        ...newContactValues(accountId, row),
        inLockOrder(tags),
        liftedBy,
        emailKey(row.email),
        contactCreatedV1.type,
        JSON.stringify(contactCreatedV1.schema.parse(fact)),
        currentTraceparent(),
      ],
    })
    .catch((error: unknown) => {
      if (isTagCreatedMeanwhile(error)) return undefined;
      return rethrowTaken(error);
    });
  const inserted = result?.rows[0];
  if (!inserted) return undefined;
  const { lifted, ...contact } = inserted;
  return { contact, lifted };
}
