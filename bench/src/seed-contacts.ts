import pg from 'pg';
import { serviceDatabaseUrl } from '@mailer/shared';
import { BENCH_DOMAIN } from './start-stack';

/** The seeded contacts: ids form one contiguous range (one INSERT into a fresh identity column). */
export interface SeededContacts {
  count: number;
  firstId: number;
  lastId: number;
  seconds: number;
}

export const seededEmail = (n: number) => `seed${n}@${BENCH_DOMAIN}`;

export const databaseUrlOf = (env: NodeJS.ProcessEnv, service: string) =>
  serviceDatabaseUrl({ service, postgresUrl: env.POSTGRES_URL!, dbPrefix: env.DB_PREFIX! });

/**
 * Writes `count` contacts for the account straight into the contacts database in one statement
 * (no client round trips), then does what autovacuum would after a bulk load.
 */
export async function seedContacts(
  env: NodeJS.ProcessEnv,
  accountId: number,
  count: number,
): Promise<SeededContacts> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrlOf(env, 'contacts') });
  await client.connect();
  try {
    const { rows } = await client.query<{ first: string; last: string; n: string }>(
      `WITH inserted AS (
         INSERT INTO contacts (account_id, email, first_name, subscribed, bounced, source, custom_properties)
         SELECT $1, 'seed' || g || '@' || $3::text, 'Name' || g, true, false, 'bench', jsonb_build_object('n', g)
         FROM generate_series(1, $2::int) AS g
         RETURNING id)
       SELECT min(id) AS first, max(id) AS last, count(*) AS n FROM inserted`,
      [accountId, count, BENCH_DOMAIN],
    );
    await client.query('VACUUM ANALYZE contacts');
    const row = rows[0]!;
    if (Number(row.n) !== count || Number(row.last) - Number(row.first) + 1 !== count) {
      throw new Error(
        `seeding gave ${row.n} rows in ids ${row.first}..${row.last}, not ${count} contiguous ids`,
      );
    }
    return {
      count,
      firstId: Number(row.first),
      lastId: Number(row.last),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await client.end();
  }
}
