import { contactCreatedV1, currentTraceparent, type MessageOf } from '@mailer/shared';
import { emailKey } from '@mailer/shared';
import type { ContactRow, SuppressionReason } from '../domain/contact';
import { CONTACT_COLUMNS, tagsOfContact } from './contacts.repository';
import type { Queryable } from './queryable';

/**
 * The common case of a product event, a contact not seen before, in one statement (one round trip,
 * atomic without BEGIN/COMMIT): the contact (source "event", subscribed unless the address is on
 * the account's suppression list), the message's inbox row and the `contact.created.v1` fact.
 * `fact` is the payload validated in JS; the statement fills in the id, creation time, `subscribed`
 * and `suppression` it cannot know. Writes nothing, and resolves to undefined, when the
 * message was applied before or the address already exists: the caller takes the general path.
 */
export async function createContactForEvent(
  db: Queryable,
  messageKey: string,
  accountId: number,
  row: { email: string; first_name: string | null; last_name: string | null },
  fact: MessageOf<typeof contactCreatedV1>,
): Promise<(ContactRow & { suppression: SuppressionReason | null }) | undefined> {
  const { rows } = await db.query<ContactRow & { suppression: SuppressionReason | null }>({
    name: 'contacts.create-for-event',
    text: `WITH seen AS (
       SELECT 1 FROM processed_messages WHERE message_id = $1),
     suppressed AS (
       SELECT reason FROM suppressions WHERE account_id = $2 AND address = $9 AND lifted_at IS NULL),
     created AS (
       INSERT INTO contacts (account_id, email, first_name, last_name, subscribed, source, custom_properties)
       SELECT $2, $3, $4, $5, NOT EXISTS (SELECT 1 FROM suppressed), 'event', '{}'::jsonb WHERE NOT EXISTS (SELECT 1 FROM seen)
       ON CONFLICT (account_id, lower(email)) DO NOTHING
       RETURNING ${CONTACT_COLUMNS}),
     inbox AS (
       INSERT INTO processed_messages (message_id) SELECT $1 FROM created ON CONFLICT DO NOTHING),
     fact AS (
       INSERT INTO outbox (message_type, payload, trace_context)
       SELECT $6, jsonb_set(jsonb_set(jsonb_set(jsonb_set($7::jsonb, '{contact,id}', to_jsonb(created.id)),
                              '{contact,subscribed}', to_jsonb(created.subscribed)),
                            '{contact,suppression}', coalesce((SELECT to_jsonb(reason) FROM suppressed), 'null'::jsonb)),
                          '{occurred_at}',
                          to_jsonb(to_char(created.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
              $8
         FROM created)
     SELECT ${CONTACT_COLUMNS}, (SELECT reason FROM suppressed) AS suppression FROM created`,
    values: [
      messageKey,
      accountId,
      row.email,
      row.first_name,
      row.last_name,
      contactCreatedV1.type,
      JSON.stringify(contactCreatedV1.schema.parse(fact)),
      currentTraceparent(),
      emailKey(row.email),
    ],
  });
  return rows[0];
}

/**
 * The other common case, an event for a contact the event would not change (it exists and has the
 * names the event carries), in one statement instead of a transaction of five and a suppression
 * read: the message's inbox row, and the contact with its tags and its address's standing
 * suppression for the enriched event. A message applied before reads the contact as it stands,
 * as the general path does. Undefined, writing nothing, when there is no such contact or the event
 * would fill in a name: the caller takes the general path.
 */
export async function readUnchangedContactForEvent(
  db: Queryable,
  messageKey: string,
  accountId: number,
  event: { email: string; first_name: string | null; last_name: string | null },
): Promise<(ContactRow & { tags: string[]; suppression: SuppressionReason | null }) | undefined> {
  const { rows } = await db.query<ContactRow & { tags: string[]; suppression: SuppressionReason | null }>({
    name: 'contacts.read-unchanged-for-event',
    text: `WITH seen AS (
       SELECT 1 FROM processed_messages WHERE message_id = $1),
     unchanged AS (
       SELECT ${CONTACT_COLUMNS} FROM contacts
        WHERE account_id = $2 AND lower(email) = lower($3)
          AND (EXISTS (SELECT 1 FROM seen)
               OR NOT (($4::text IS NOT NULL AND coalesce(first_name, '') = '')
                    OR ($5::text IS NOT NULL AND coalesce(last_name, '') = '')))),
     inbox AS (
       INSERT INTO processed_messages (message_id) SELECT $1 FROM unchanged WHERE NOT EXISTS (SELECT 1 FROM seen)
       ON CONFLICT DO NOTHING)
     SELECT unchanged.*,
            ${tagsOfContact('unchanged')} AS tags,
            (SELECT reason FROM suppressions WHERE account_id = $2 AND address = $6 AND lifted_at IS NULL) AS suppression
       FROM unchanged`,
    values: [messageKey, accountId, event.email, event.first_name, event.last_name, emailKey(event.email)],
  });
  return rows[0];
}
