import { contactCreatedV1, emailKey, type MessageOf } from '@mailer/shared';
import type { ContactRow, SuppressionReason } from '../domain/contact';
import { CONTACT_COLUMNS, type NewContactRow } from './contacts.repository';
import { inInputOrder } from './input-order';
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
 * A tag created by a transaction that committed after the statement began: the statement can
 * neither insert it (ON CONFLICT) nor see it, so that tag's link has no tag id and its NOT NULL
 * refuses it, which undoes the whole statement.
 */
export const isTagCreatedMeanwhile = (error: unknown): boolean => {
  const pgError = error as { code?: string; table?: string; column?: string } | null;
  return (
    pgError?.code === NOT_NULL_VIOLATION && pgError.table === 'contact_tags' && pgError.column === 'tag_id'
  );
};

/** One new contact as the statement below takes it. */
export interface ContactToInsert {
  accountId: number;
  row: NewContactRow;
  tags: readonly string[];
  liftedBy: string | null;
  fact: MessageOf<typeof contactCreatedV1>;
  /** The trace context of the request, for the fact. */
  traceparent: string | null;
}

/**
 * New contacts in one statement (one round trip and one commit for all, atomic without
 * BEGIN/COMMIT): each row; its tags (distinct case-insensitively) found or created by name and
 * linked; the lift of its address's standing suppression when `liftedBy` names who lifts it; and
 * its `contact.created.v1` fact, whose id, tags as stored (an existing tag keeps its spelling),
 * suppression and creation time the statement fills in. Answers in the inputs' order; an input
 * answered "taken" had nothing written for it: its address exists in the account (or an earlier
 * input of the statement has it). Rows and new tags are inserted in key order, the order every
 * writer locks them in; the contact is written before its tags, as the transaction path writes
 * them. Raises, having written nothing, when a tag was created meanwhile by another transaction
 * (`isTagCreatedMeanwhile`): the caller then takes the transaction path, whose later statements
 * see that tag. Lookups are lateral `LIMIT 1` subqueries: one index probe each whatever plan is
 * cached.
 */
export async function insertContactsWithTagsAndFacts(
  db: Queryable,
  inputs: readonly ContactToInsert[],
): Promise<Array<InsertedContact | 'taken'>> {
  const tagRows = inputs.flatMap((input, index) =>
    inLockOrder(input.tags).map((name, position) => ({ n: index + 1, name, position })),
  );
  const { rows } = await db.query<InsertedContact['contact'] & { n: string; lifted: InsertedContact['lifted'] }>({
    name: 'contacts.insert-many-with-tags-and-facts',
    text: `WITH input AS (
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::text[],
                            $8::text[], $9::text[], $10::text[], $11::text[])
         WITH ORDINALITY AS i(account_id, email, first_name, last_name, subscribed, source, custom_properties,
                              lifted_by, email_key, fact, traceparent, n)),
     created AS (
       INSERT INTO contacts (account_id, email, first_name, last_name, subscribed, source, custom_properties)
       SELECT account_id, email, first_name, last_name, subscribed, source, custom_properties::jsonb
         FROM input ORDER BY account_id, lower(email), n
       ON CONFLICT (account_id, lower(email)) DO NOTHING
       RETURNING ${CONTACT_COLUMNS}),
     created_n AS (
       SELECT DISTINCT ON (created.id) input.n, created.*
         FROM created JOIN input ON input.account_id = created.account_id AND lower(input.email) = lower(created.email)
        ORDER BY created.id, input.n),
     lifted AS (
       UPDATE suppressions SET lifted_at = now(), lifted_by = input.lifted_by
         FROM created_n JOIN input USING (n)
        WHERE input.lifted_by IS NOT NULL AND suppressions.account_id = input.account_id
          AND suppressions.address = input.email_key AND suppressions.lifted_at IS NULL
       RETURNING created_n.n, suppressions.reason),
     standing AS (
       -- A lift leaves nothing standing.
       SELECT input.n, found.reason FROM input,
              LATERAL (SELECT reason FROM suppressions
                        WHERE input.lifted_by IS NULL AND account_id = input.account_id
                          AND address = input.email_key AND lifted_at IS NULL LIMIT 1) found),
     wanted AS (
       SELECT DISTINCT c.n, c.account_id, lower(given.name) AS key
         FROM unnest($12::bigint[], $13::text[], $14::int[]) AS given(n, name, position) JOIN created_n c USING (n)),
     new_tags AS (
       INSERT INTO tags (account_id, name)
       SELECT DISTINCT ON (c.account_id, lower(given.name)) c.account_id, given.name
         FROM unnest($12::bigint[], $13::text[], $14::int[]) AS given(n, name, position) JOIN created_n c USING (n)
        ORDER BY c.account_id, lower(given.name), given.n, given.position
       ON CONFLICT (account_id, lower(name)) DO NOTHING
       RETURNING id, account_id, name),
     found_tags AS (
       SELECT id, account_id, name FROM new_tags
       UNION ALL
       SELECT found.id, found.account_id, found.name FROM (SELECT DISTINCT account_id, key FROM wanted) w,
              LATERAL (SELECT id, account_id, name FROM tags WHERE account_id = w.account_id AND lower(name) = w.key LIMIT 1) found),
     links AS (
       INSERT INTO contact_tags (contact_id, tag_id)
       SELECT c.id, found_tags.id
         FROM wanted JOIN created_n c USING (n)
         LEFT JOIN found_tags ON found_tags.account_id = wanted.account_id AND lower(found_tags.name) = wanted.key),
     tag_names AS (
       SELECT wanted.n, array_agg(found_tags.name ORDER BY lower(found_tags.name) COLLATE "C", found_tags.name COLLATE "C") AS tags
         FROM wanted JOIN found_tags ON found_tags.account_id = wanted.account_id AND lower(found_tags.name) = wanted.key
        GROUP BY wanted.n),
     fact AS (
       INSERT INTO outbox (message_type, payload, trace_context)
       SELECT $15, jsonb_set(jsonb_set(jsonb_set(jsonb_set(input.fact::jsonb, '{contact,id}', to_jsonb(c.id)),
                              '{contact,tags}', to_jsonb(coalesce(tag_names.tags, '{}'))),
                            '{contact,suppression}', coalesce((SELECT to_jsonb(reason) FROM standing WHERE standing.n = c.n), 'null'::jsonb)),
                          '{occurred_at}', to_jsonb(${ISO_MILLIS_UTC('c.created_at')})),
              input.traceparent
         FROM created_n c JOIN input USING (n) LEFT JOIN tag_names USING (n)
        ORDER BY c.n)
     SELECT c.*, coalesce(tag_names.tags, '{}') AS tags, (SELECT reason FROM lifted WHERE lifted.n = c.n) AS lifted
       FROM created_n c LEFT JOIN tag_names USING (n)`,
    values: [
      inputs.map((input) => input.accountId),
      inputs.map((input) => input.row.email),
      inputs.map((input) => input.row.first_name),
      inputs.map((input) => input.row.last_name),
      inputs.map((input) => input.row.subscribed),
      inputs.map((input) => input.row.source),
      inputs.map((input) => JSON.stringify(input.row.custom_properties)),
      inputs.map((input) => input.liftedBy),
      inputs.map((input) => emailKey(input.row.email)),
      inputs.map((input) => JSON.stringify(contactCreatedV1.schema.parse(input.fact))),
      inputs.map((input) => input.traceparent),
      tagRows.map((tag) => tag.n),
      tagRows.map((tag) => tag.name),
      tagRows.map((tag) => tag.position),
      contactCreatedV1.type,
    ],
  });
  // ON CONFLICT is the only reason a row of the statement is not inserted.
  return inInputOrder(rows, inputs.length, ({ n: _n, lifted, ...contact }): InsertedContact => ({ contact, lifted }), 'taken' as const);
}
