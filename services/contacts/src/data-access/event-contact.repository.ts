import { columnsOf, contactCreatedV1, type MessageOf } from '@mailer/shared';
import { emailKey } from '@mailer/shared';
import type { ContactRow, SuppressionReason } from '../domain/contact';
import { CONTACT_COLUMNS, tagsOfContact } from './contacts.repository';
import { ISO_MILLIS_UTC } from './outbox.repository';
import { inInputOrder } from './input-order';
import type { Queryable } from './queryable';

export type EventContact = ContactRow & { tags: string[]; suppression: SuppressionReason | null };

/** One product event as the statement below takes it. */
export interface EventContactInput {
  /** The inbox row of the event (its queue and event id). */
  messageKey: string;
  accountId: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  /** The `contact.created.v1` payload validated in JS; the statement fills in what it cannot know. */
  fact: MessageOf<typeof contactCreatedV1>;
  /** The trace context of the message the event came in, for the fact. */
  traceparent: string | null;
  /** The event's name and when it was received: counted in the contact's event days. */
  event: string;
  receivedAt: string;
}

/**
 * The two common cases of a product event, for a batch of events in one statement (one round trip
 * and one commit for all of them, atomic without BEGIN/COMMIT), each with its inbox row:
 * - the address is new to the account: the contact is created (source "event", subscribed unless
 *   the address is on the account's suppression list) with its `contact.created.v1` fact;
 * - the contact exists and the event would not change it (it has the names the event carries):
 *   it is read, with its tags.
 * Either comes back with its address's standing suppression, for the enriched event. An event
 * applied before (its inbox row exists: a redelivery after a crash between the commit and the
 * enriched publish) reads the contact as it stands, as the general path does, so the caller
 * publishes the enriched event again. The existing contact is
 * looked for before any insert is tried, so an event for a known address burns no identity value.
 * Each event applied now is counted in its contact's day (`contact_event_days`), in the same statement.
 * The answers are in the events' order; an event answered undefined had nothing written for it,
 * and its caller must take the general path: the event would fill in a name, the account wants
 * double opt-in for a new contact, the message was seen before and its contact is gone, or another
 * transaction created the address meanwhile.
 * The events must name distinct messages and distinct addresses of an account: the statement
 * cannot see its own inserts, so a second event for an address created in it would not find it.
 * Each lookup is a lateral subquery with LIMIT 1, which the planner cannot turn into a hash join:
 * a plan cached while the inbox table was small would otherwise scan all of it for every batch.
 */
export async function createOrReadUnchangedContactsForEvents(
  db: Queryable,
  events: readonly EventContactInput[],
): Promise<Array<EventContact | undefined>> {
  const { rows } = await db.query<EventContact & { n: string }>({
    name: 'contacts.create-or-read-unchanged-for-events',
    text: `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $10::text[], $11::timestamptz[])
         WITH ORDINALITY AS i(message_key, account_id, email, first_name, last_name, fact, traceparent, email_key, event, received_at, n)),
     seen AS (
       SELECT input.n FROM input,
              LATERAL (SELECT 1 FROM processed_messages WHERE message_id = input.message_key LIMIT 1) found),
     existing AS (
       SELECT input.n, found.* FROM input,
              LATERAL (SELECT ${CONTACT_COLUMNS} FROM contacts
                        WHERE account_id = input.account_id AND lower(email) = lower(input.email) LIMIT 1) found),
     unchanged AS (
       SELECT existing.* FROM existing JOIN input USING (n)
        WHERE existing.n IN (SELECT n FROM seen)
           OR NOT ((input.first_name IS NOT NULL AND coalesce(existing.first_name, '') = '')
                OR (input.last_name IS NOT NULL AND coalesce(existing.last_name, '') = ''))),
     suppressed AS (
       SELECT input.n, found.reason FROM input,
              LATERAL (SELECT reason FROM suppressions
                        WHERE account_id = input.account_id AND address = input.email_key AND lifted_at IS NULL LIMIT 1) found),
     created AS (
       INSERT INTO contacts (account_id, email, first_name, last_name, subscribed, source, custom_properties)
       SELECT input.account_id, input.email, input.first_name, input.last_name,
              NOT EXISTS (SELECT 1 FROM suppressed WHERE suppressed.n = input.n), 'event', '{}'::jsonb
         FROM input
        WHERE input.n NOT IN (SELECT n FROM seen)
          AND input.n NOT IN (SELECT n FROM existing)
          AND NOT EXISTS (SELECT 1 FROM double_opt_in_settings WHERE account_id = input.account_id AND enabled)
        -- Key order, as the creates' statement inserts: two statements never wait on each other crosswise.
        ORDER BY input.account_id, lower(input.email), input.n
       ON CONFLICT (account_id, lower(email)) DO NOTHING
       RETURNING ${CONTACT_COLUMNS}),
     created_by_event AS (
       -- The first event of the address only, should two events name it in ways JS's and
       -- Postgres's lower() tell apart differently: the other one takes the general path.
       SELECT DISTINCT ON (created.id) input.n, created.*
         FROM created JOIN input ON input.account_id = created.account_id AND lower(input.email) = lower(created.email)
        ORDER BY created.id, input.n),
     inbox AS (
       INSERT INTO processed_messages (message_id)
       SELECT input.message_key FROM input
        WHERE input.n NOT IN (SELECT n FROM seen)
          AND (input.n IN (SELECT n FROM created_by_event) OR input.n IN (SELECT n FROM unchanged))
       ON CONFLICT DO NOTHING
       RETURNING message_id),
     event_days AS (
       -- Counted with the inbox row it claimed, so a redelivered event is counted once.
       INSERT INTO contact_event_days (account_id, event, day, contact_id, count)
       SELECT input.account_id, input.event, (input.received_at AT TIME ZONE 'UTC')::date, m.id, count(*)
         FROM inbox JOIN input ON input.message_key = inbox.message_id
         JOIN (SELECT n, id FROM created_by_event UNION ALL SELECT n, id FROM unchanged) m ON m.n = input.n
        GROUP BY 1, 2, 3, 4
        -- Key order: two statements counting the same days lock them in the same order.
        ORDER BY 1, 2, 3, 4
       ON CONFLICT (account_id, event, day, contact_id) DO UPDATE SET count = contact_event_days.count + excluded.count),
     fact AS (
       INSERT INTO outbox (message_type, payload, trace_context)
       SELECT $9, jsonb_set(jsonb_set(jsonb_set(jsonb_set(input.fact::jsonb, '{contact,id}', to_jsonb(c.id)),
                              '{contact,subscribed}', to_jsonb(c.subscribed)),
                            '{contact,suppression}', coalesce((SELECT to_jsonb(reason) FROM suppressed WHERE suppressed.n = c.n), 'null'::jsonb)),
                          '{occurred_at}', to_jsonb(${ISO_MILLIS_UTC('c.created_at')})),
              input.traceparent
         FROM created_by_event c JOIN input USING (n)
        ORDER BY n)
     SELECT c.*, '{}'::text[] AS tags, (SELECT reason FROM suppressed WHERE suppressed.n = c.n) AS suppression
       FROM created_by_event c
     UNION ALL
     SELECT u.*, ${tagsOfContact('u')}, (SELECT reason FROM suppressed WHERE suppressed.n = u.n) FROM unchanged u`,
    values: [
      ...columnsOf(events, [
        (event) => event.messageKey,
        (event) => event.accountId,
        (event) => event.email,
        (event) => event.first_name,
        (event) => event.last_name,
        (event) => JSON.stringify(contactCreatedV1.schema.parse(event.fact)),
        (event) => event.traceparent,
        (event) => emailKey(event.email),
      ]),
      contactCreatedV1.type,
      ...columnsOf(events, [(event) => event.event, (event) => event.receivedAt]),
    ],
  });
  return inInputOrder(rows, events.length, ({ n: _n, ...contact }): EventContact => contact, undefined);
}
