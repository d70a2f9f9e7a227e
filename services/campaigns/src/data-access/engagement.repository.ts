import type { Queryable } from './queryable';

/** One tracking hit as the campaign's counts see it. */
export interface ContactHit {
  kind: 'open' | 'click';
  machine: boolean;
  accountId: number;
  campaignId: number;
  contactId: number;
  occurredAt: string;
}

/**
 * Counts one hit on its contact's row of the campaign, in one statement; false when the account has
 * no such campaign. A reader's click with no open before it is also that reader's first open; a
 * machine's hit moves only the machine counts.
 */
export async function countContactHit(db: Queryable, hit: ContactHit): Promise<boolean> {
  const readerOpen = !hit.machine && hit.kind === 'open';
  const readerClick = !hit.machine && hit.kind === 'click';
  const { rowCount } = await db.query(
    `INSERT INTO campaign_engagement_contacts AS t
            (campaign_id, contact_id, first_open_at, first_click_at, opens, clicks, machine_opens, machine_clicks)
     SELECT id, $3, CASE WHEN $5::boolean OR $6::boolean THEN $4::timestamptz END, CASE WHEN $6::boolean THEN $4::timestamptz END,
            ($5::boolean OR $6::boolean)::int, $6::boolean::int, $7::int, $8::int
       FROM campaigns WHERE account_id = $1 AND id = $2
     ON CONFLICT (campaign_id, contact_id) DO UPDATE SET
            opens = t.opens + CASE WHEN $5::boolean OR ($6::boolean AND t.first_open_at IS NULL) THEN 1 ELSE 0 END,
            clicks = t.clicks + EXCLUDED.clicks,
            machine_opens = t.machine_opens + EXCLUDED.machine_opens,
            machine_clicks = t.machine_clicks + EXCLUDED.machine_clicks,
            first_open_at = LEAST(t.first_open_at, EXCLUDED.first_open_at),
            first_click_at = LEAST(t.first_click_at, EXCLUDED.first_click_at)`,
    [
      hit.accountId,
      hit.campaignId,
      hit.contactId,
      hit.occurredAt,
      readerOpen,
      readerClick,
      hit.machine && hit.kind === 'open' ? 1 : 0,
      hit.machine && hit.kind === 'click' ? 1 : 0,
    ],
  );
  return rowCount === 1;
}

/** Counts a reader's click on its link (by URL) for the contact. */
export async function countLinkClick(db: Queryable, campaignId: number, contactId: number, url: string, occurredAt: string): Promise<void> {
  await db.query(
    `INSERT INTO campaign_link_clicks AS l (campaign_id, url_key, contact_id, url, clicks, first_click_at)
     VALUES ($1, md5($3)::uuid, $2, $3, 1, $4)
     ON CONFLICT (campaign_id, url_key, contact_id) DO UPDATE SET
            clicks = l.clicks + 1, first_click_at = LEAST(l.first_click_at, EXCLUDED.first_click_at)`,
    [campaignId, contactId, url, occurredAt],
  );
}
