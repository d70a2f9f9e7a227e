import type { Queryable } from './queryable';

export interface EngagementTotals {
  opened_unique: number;
  opened_total: number;
  clicked_unique: number;
  clicked_total: number;
  machine_opens: number;
  machine_clicks: number;
}

export interface HourCounts {
  /** Whole hours since the start: 0 is the first hour. */
  hour: number;
  opens: number;
  clicks: number;
}

export interface LinkCounts {
  url: string;
  unique_clicks: number;
  total_clicks: number;
}

/** A campaign's engagement summed over its contacts' rows (unique: contacts with a first time). */
export async function engagementTotals(db: Queryable, campaignId: number): Promise<EngagementTotals> {
  const { rows } = await db.query<EngagementTotals>(
    `SELECT count(first_open_at) AS opened_unique, coalesce(sum(opens), 0) AS opened_total,
            count(first_click_at) AS clicked_unique, coalesce(sum(clicks), 0) AS clicked_total,
            coalesce(sum(machine_opens), 0) AS machine_opens, coalesce(sum(machine_clicks), 0) AS machine_clicks
       FROM campaign_engagement_contacts WHERE campaign_id = $1`,
    [campaignId],
  );
  return rows[0]!;
}

/**
 * Readers' first opens and first clicks per whole hour after `start`, for the first `hours` hours;
 * hours with neither are absent. The hour is counted from `start` as the report is read: counting a
 * hit needs no start, and the first times already hold when each reader came.
 */
export async function firstHitsByHour(db: Queryable, campaignId: number, start: Date, hours: number): Promise<HourCounts[]> {
  // date_bin buckets each time in C; the hour's number is worked out once per bucket, not per row
  // (extract per row took about twice as long at 100k readers).
  const { rows } = await db.query<HourCounts>(
    `SELECT (date_part('epoch', bucket - $2::timestamptz) / 3600)::int AS hour,
            count(*) FILTER (WHERE is_open) AS opens, count(*) FILTER (WHERE NOT is_open) AS clicks
       FROM (SELECT true AS is_open, date_bin('1 hour', first_open_at, $2::timestamptz) AS bucket
               FROM campaign_engagement_contacts
              WHERE campaign_id = $1 AND first_open_at >= $2::timestamptz AND first_open_at < $2::timestamptz + $3::int * interval '1 hour'
             UNION ALL
             SELECT false, date_bin('1 hour', first_click_at, $2::timestamptz)
               FROM campaign_engagement_contacts
              WHERE campaign_id = $1 AND first_click_at >= $2::timestamptz AND first_click_at < $2::timestamptz + $3::int * interval '1 hour') AS hits
      GROUP BY bucket`,
    [campaignId, start, hours],
  );
  return rows;
}

/** The campaign's most clicked links by readers: unique clicks (contacts), then total. */
export async function linkClickCounts(db: Queryable, campaignId: number, limit: number): Promise<LinkCounts[]> {
  const { rows } = await db.query<LinkCounts>(
    `SELECT min(url) AS url, count(*) AS unique_clicks, sum(clicks) AS total_clicks
       FROM campaign_link_clicks WHERE campaign_id = $1
      GROUP BY url_key ORDER BY 2 DESC, 3 DESC, 1 LIMIT $2`,
    [campaignId, limit],
  );
  return rows;
}
