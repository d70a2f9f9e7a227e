import type { Campaign, CampaignStatus, NewCampaign } from '../domain/campaign';
import type { Queryable } from './queryable';

/** The spec's fields only: account_id and subject stay in the database. */
const PUBLIC_COLUMNS = `id, name, title, status, preview_text, emails_sent, emails_failed, total_recipients,
  unsubscribes_count, send_at, sent_at, created_at, updated_at`;

export interface CampaignFilter {
  accountId: number;
  status?: CampaignStatus | undefined;
  q?: string | undefined;
}

/** `q` is a substring, not a pattern: the LIKE wildcards and the escape character match themselves. */
export const likeSubstring = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

function whereClause(filter: CampaignFilter): { sql: string; values: unknown[] } {
  const values: unknown[] = [filter.accountId];
  const conditions = ['account_id = $1'];
  if (filter.status !== undefined) {
    values.push(filter.status);
    conditions.push(`status = $${values.length}`);
  }
  if (filter.q) {
    values.push(likeSubstring(filter.q));
    const p = `$${values.length}`;
    conditions.push(`(name ILIKE ${p} ESCAPE '\\' OR title ILIKE ${p} ESCAPE '\\' OR subject ILIKE ${p} ESCAPE '\\')`);
  }
  return { sql: conditions.join(' AND '), values };
}

type PageRow = Partial<Campaign> & { total_count: number };

/**
 * One round trip for a page and the total: the count always yields one row, and the page joins to
 * it, so a page past the end still reports the true total.
 */
export async function findCampaignPage(
  db: Queryable,
  filter: CampaignFilter,
  limit: number,
  offset: number,
): Promise<{ campaigns: Campaign[]; totalCount: number }> {
  const where = whereClause(filter);
  const limitParam = where.values.length + 1;
  const { rows } = await db.query<PageRow>(
    `SELECT total.total_count, page.*
       FROM (SELECT count(*) AS total_count FROM campaigns WHERE ${where.sql}) AS total
       LEFT JOIN LATERAL (
         SELECT ${PUBLIC_COLUMNS} FROM campaigns WHERE ${where.sql}
          ORDER BY id DESC LIMIT $${limitParam} OFFSET $${limitParam + 1}
       ) AS page ON true
      ORDER BY page.id DESC`,
    [...where.values, limit, offset],
  );
  const totalCount = rows[0]?.total_count ?? 0;
  const campaigns = rows.filter((row) => row.id != null).map(({ total_count: _total, ...campaign }) => campaign as Campaign);
  return { campaigns, totalCount };
}

export async function findCampaign(db: Queryable, accountId: number, id: number): Promise<Campaign | undefined> {
  const { rows } = await db.query<Campaign>(
    `SELECT ${PUBLIC_COLUMNS} FROM campaigns WHERE account_id = $1 AND id = $2`,
    [accountId, id],
  );
  return rows[0];
}

/**
 * Inserts every row in one statement, in the given order, so ids grow down the file (the last row
 * is the newest). Returns the ids in that order.
 */
export async function insertCampaigns(db: Queryable, accountId: number, campaigns: NewCampaign[]): Promise<number[]> {
  const column = <K extends keyof NewCampaign>(key: K) => campaigns.map((campaign) => campaign[key]);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO campaigns (account_id, name, title, subject, status, preview_text, emails_sent, emails_failed,
                            total_recipients, unsubscribes_count, send_at, sent_at, created_at, updated_at)
     SELECT $1, r.name, r.title, r.subject, r.status, r.preview_text, r.emails_sent, r.emails_failed,
            r.total_recipients, r.unsubscribes_count, r.send_at, r.sent_at,
            coalesce(r.created_at, now()), coalesce(r.updated_at, r.created_at, now())
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[],
                   $10::int[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[], $14::timestamptz[])
            WITH ORDINALITY AS r(name, title, subject, status, preview_text, emails_sent, emails_failed,
                                 total_recipients, unsubscribes_count, send_at, sent_at, created_at, updated_at, ord)
      ORDER BY r.ord
     RETURNING id`,
    [
      accountId,
      column('name'),
      column('title'),
      column('subject'),
      column('status'),
      column('preview_text'),
      column('emails_sent'),
      column('emails_failed'),
      column('total_recipients'),
      column('unsubscribes_count'),
      column('send_at'),
      column('sent_at'),
      column('created_at'),
      column('updated_at'),
    ],
  );
  // Identity values are drawn in the SELECT's order, so ascending ids are the file's order.
  return rows.map((row) => row.id).sort((a, b) => a - b);
}
