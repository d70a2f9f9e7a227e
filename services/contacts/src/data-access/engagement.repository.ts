import type { Queryable } from './queryable';

export interface ReaderHit {
  /** The inbox key of the hit (queue and hit id). */
  messageKey: string;
  accountId: number;
  contactId: number;
  /** Null for a workflow's email: those share one row per contact. */
  campaignId: number | null;
  occurredAt: string;
  clicked: boolean;
}

/**
 * A reader's open or click, once per hit, in one statement (atomic without BEGIN/COMMIT): the
 * inbox row, the contact's `last_engaged_at` (the latest hit wins, whatever order they come in)
 * and its engagement row for the campaign (first open and first click kept; a click is an open
 * too). A hit seen before, or for a contact deleted since, writes nothing else.
 */
export async function recordReaderHit(db: Queryable, hit: ReaderHit): Promise<void> {
  await db.query({
    name: 'contacts.record-reader-hit',
    text: `WITH claimed AS (
       INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1),
     contact AS (
       UPDATE contacts SET last_engaged_at = greatest(last_engaged_at, $5::timestamptz)
        WHERE account_id = $2 AND id = $3 AND EXISTS (SELECT 1 FROM claimed)
       RETURNING id, account_id)
     INSERT INTO contact_engagements (account_id, contact_id, campaign_id, first_opened_at, first_clicked_at, last_at)
     SELECT account_id, id, $4::bigint, $5::timestamptz, CASE WHEN $6::boolean THEN $5::timestamptz END, $5::timestamptz FROM contact
     ON CONFLICT (contact_id, campaign_id) DO UPDATE SET
       first_opened_at = least(contact_engagements.first_opened_at, excluded.first_opened_at),
       first_clicked_at = least(contact_engagements.first_clicked_at, excluded.first_clicked_at),
       last_at = greatest(contact_engagements.last_at, excluded.last_at)`,
    values: [hit.messageKey, hit.accountId, hit.contactId, hit.campaignId, hit.occurredAt, hit.clicked],
  });
}
