import pg from 'pg';
import { databaseUrlOf, type SeededContacts } from './seed-contacts';

/** The campaign whose opens and clicks the seeded engagement history holds. */
export const SEEDED_CAMPAIGN_ID = 1;

/**
 * What segments read besides the contacts, over the seeded ones, deterministic by id: tags
 * (`customer` on 1 in 2, `vip` on 1 in 10), properties `plan` and `seats`, a reader's last
 * engagement on 1 in 3, `login` events on 1 in 4 over the last 30 days (a row per contact and day,
 * as the product-event path writes them) and campaign 1 opened by 1 in 3 (clicked by 1 in 9).
 * Then what autovacuum would do after a bulk load.
 */
export async function seedSegmentHistory(env: NodeJS.ProcessEnv, accountId: number, seeded: SeededContacts): Promise<{ seconds: number }> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrlOf(env, 'contacts') });
  await client.connect();
  try {
    const range = [accountId, seeded.firstId, seeded.lastId];
    await client.query(
      `UPDATE contacts SET
         custom_properties = custom_properties || jsonb_build_object('plan', (ARRAY['free', 'pro', 'team'])[1 + id % 3], 'seats', id % 20),
         last_engaged_at = CASE WHEN id % 3 = 0 THEN now() - make_interval(days => (id % 120)::int) END,
         subscribed = id % 7 <> 0
       WHERE account_id = $1 AND id BETWEEN $2 AND $3`,
      range,
    );
    await client.query(`INSERT INTO tags (account_id, name) VALUES ($1, 'customer'), ($1, 'vip') ON CONFLICT DO NOTHING`, [accountId]);
    await client.query(
      `INSERT INTO contact_tags (contact_id, tag_id)
       SELECT c.id, t.id FROM contacts c JOIN tags t ON t.account_id = c.account_id
        WHERE c.account_id = $1 AND c.id BETWEEN $2 AND $3
          AND ((t.name = 'customer' AND c.id % 2 = 0) OR (t.name = 'vip' AND c.id % 10 = 0))`,
      range,
    );
    await client.query(
      `INSERT INTO contact_event_days (account_id, event, day, contact_id, count)
       SELECT $1, 'login', (now() AT TIME ZONE 'UTC')::date - d, c.id, 1 + (c.id + d) % 3
         FROM contacts c CROSS JOIN generate_series(0, 29, 3) AS d
        WHERE c.account_id = $1 AND c.id BETWEEN $2 AND $3 AND c.id % 4 = 0`,
      range,
    );
    await client.query(
      `INSERT INTO contact_engagements (account_id, contact_id, campaign_id, first_opened_at, first_clicked_at, last_at)
       SELECT $1, c.id, $4, now() - interval '2 days', CASE WHEN c.id % 9 = 0 THEN now() - interval '1 day' END, now() - interval '1 day'
         FROM contacts c WHERE c.account_id = $1 AND c.id BETWEEN $2 AND $3 AND c.id % 3 = 0`,
      [...range, SEEDED_CAMPAIGN_ID],
    );
    await client.query('VACUUM ANALYZE contacts, tags, contact_tags, contact_event_days, contact_engagements');
    return { seconds: (Date.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}
