import type { Queryable } from './queryable';

/** One more event of the contact on the day (UTC) it was received: what segments' event conditions sum. */
export async function countEventDay(db: Queryable, accountId: number, contactId: number, event: string, receivedAt: string): Promise<void> {
  await db.query({
    name: 'contacts.count-event-day',
    text: `INSERT INTO contact_event_days (account_id, event, day, contact_id, count)
     VALUES ($1, $2, ($3::timestamptz AT TIME ZONE 'UTC')::date, $4, 1)
     ON CONFLICT (account_id, event, day, contact_id) DO UPDATE SET count = contact_event_days.count + 1`,
    values: [accountId, event, receivedAt, contactId],
  });
}
