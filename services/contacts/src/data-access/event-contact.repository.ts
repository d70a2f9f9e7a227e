import { contactCreatedV1, currentTraceparent, type MessageOf } from '@mailer/shared';
import { emailKey } from '@mailer/shared';
import type { ContactRow, SuppressionReason } from '../domain/contact';
import { CONTACT_COLUMNS, tagsOfContact } from './contacts.repository';
import { ISO_MILLIS_UTC } from './outbox.repository';
import type { Queryable } from './queryable';

export type EventContact = ContactRow & { tags: string[]; suppression: SuppressionReason | null };

/**
 * The two common cases of a product event in one statement (one round trip, atomic without
 * BEGIN/COMMIT), each with the message's inbox row:
 * - the address is new to the account: the contact is created (source "event", subscribed unless
 *   the address is on the account's suppression list) with its `contact.created.v1` fact;
 * - the contact exists and the event would not change it (it has the names the event carries):
 *   it is read, with its tags.
 * Either comes back with its address's standing suppression, for the enriched event. A message
 * applied before reads the contact as it stands, as the general path does. The existing contact is
 * looked for before any insert is tried, so an event for a known address burns no identity value.
 * `fact` is the payload validated in JS; the statement fills in the id, creation time, `subscribed`
 * and `suppression` it cannot know.
 * Resolves to undefined, having written nothing, when the caller must take the general path: the
 * event would fill in a name, the account wants double opt-in for a new contact, the message was
 * seen before and its contact is gone, or another transaction created the address meanwhile.
 */
export async function createOrReadUnchangedContactForEvent(
  db: Queryable,
  messageKey: string,
  accountId: number,
  event: { email: string; first_name: string | null; last_name: string | null },
  fact: MessageOf<typeof contactCreatedV1>,
): Promise<EventContact | undefined> {
  const { rows } = await db.query<EventContact>({
    name: 'contacts.create-or-read-unchanged-for-event',
    text: `WITH seen AS (
       SELECT 1 FROM processed_messages WHERE message_id = $1),
     existing AS (
       SELECT ${CONTACT_COLUMNS} FROM contacts WHERE account_id = $2 AND lower(email) = lower($3)),
     unchanged AS (
       SELECT * FROM existing
        WHERE EXISTS (SELECT 1 FROM seen)
           OR NOT (($4::text IS NOT NULL AND coalesce(first_name, '') = '')
                OR ($5::text IS NOT NULL AND coalesce(last_name, '') = ''))),
     suppressed AS (
       SELECT reason FROM suppressions WHERE account_id = $2 AND address = $9 AND lifted_at IS NULL),
     created AS (
       INSERT INTO contacts (account_id, email, first_name, last_name, subscribed, source, custom_properties)
       SELECT $2, $3, $4, $5, NOT EXISTS (SELECT 1 FROM suppressed), 'event', '{}'::jsonb
        WHERE NOT EXISTS (SELECT 1 FROM seen)
          AND NOT EXISTS (SELECT 1 FROM existing)
          AND NOT EXISTS (SELECT 1 FROM double_opt_in_settings WHERE account_id = $2 AND enabled)
       ON CONFLICT (account_id, lower(email)) DO NOTHING
       RETURNING ${CONTACT_COLUMNS}),
     inbox AS (
       INSERT INTO processed_messages (message_id)
       SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM seen)
                   AND (EXISTS (SELECT 1 FROM created) OR EXISTS (SELECT 1 FROM unchanged))
       ON CONFLICT DO NOTHING),
     fact AS (
       INSERT INTO outbox (message_type, payload, trace_context)
       SELECT $6, jsonb_set(jsonb_set(jsonb_set(jsonb_set($7::jsonb, '{contact,id}', to_jsonb(created.id)),
                              '{contact,subscribed}', to_jsonb(created.subscribed)),
                            '{contact,suppression}', coalesce((SELECT to_jsonb(reason) FROM suppressed), 'null'::jsonb)),
                          '{occurred_at}', to_jsonb(${ISO_MILLIS_UTC('created.created_at')})),
              $8
         FROM created)
     SELECT created.*, '{}'::text[] AS tags, (SELECT reason FROM suppressed) AS suppression FROM created
     UNION ALL
     SELECT unchanged.*, ${tagsOfContact('unchanged')}, (SELECT reason FROM suppressed) FROM unchanged`,
    values: [
      messageKey,
      accountId,
      event.email,
      event.first_name,
      event.last_name,
      contactCreatedV1.type,
      JSON.stringify(contactCreatedV1.schema.parse(fact)),
      currentTraceparent(),
      emailKey(event.email),
    ],
  });
  return rows[0];
}
