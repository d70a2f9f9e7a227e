import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { ensureDatabase, serviceDatabaseUrl } from '@mailer/shared';
import { testServers } from '@mailer/testing';
import { MIGRATIONS_DIR } from '../src/database';

const NORMALISING = '1764100000000_normalised-user-emails';

/** A gateway database of its own, migrated up to (not including) the normalising migration. */
async function databaseBeforeNormalising() {
  const { postgresUrl, dbPrefix } = testServers();
  const url = serviceDatabaseUrl({ service: `gwmig${randomBytes(3).toString('hex')}`, databaseUrl: undefined, postgresUrl, dbPrefix });
  await ensureDatabase(url);
  const names = readdirSync(MIGRATIONS_DIR).map((file) => file.replace(/\.(sql|js)$/, '')).sort();
  const migrate = (count: number) =>
    runner({ databaseUrl: url, dir: MIGRATIONS_DIR, direction: 'up', migrationsTable: 'pgmigrations', count, checkOrder: true, log: () => undefined });
  await migrate(names.indexOf(NORMALISING));
  return { url, migrateRest: () => migrate(Infinity) };
}

describe('migration: sign-in emails stored in their one normal form', () => {
  it('rewrites existing rows with the fold the gateway applies (NFKC, case fold), so the lookup is equality', async () => {
    const { url, migrateRest } = await databaseBeforeNormalising();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>("INSERT INTO accounts (name, plan) VALUES ('Acme', 'pro') RETURNING id");
      const account = rows[0]!.id;
      for (const email of ['İvy@Example.com', 'STRASSE@example.com', 'ｆｕｌｌ@example.com', 'plain@example.com']) {
        await client.query("INSERT INTO users (account_id, email, password_hash) VALUES ($1, $2, 'x')", [account, email]);
      }
      await migrateRest();
      const after = await client.query<{ email: string }>('SELECT email FROM users ORDER BY id');
      expect(after.rows.map((row) => row.email)).toEqual(['i\u0307vy@example.com', 'strasse@example.com', 'full@example.com', 'plain@example.com']);
      // One identity per normal form: a second spelling of the same address is refused by the index.
      await expect(
        client.query("INSERT INTO users (account_id, email, password_hash) VALUES ($1, 'plain@example.com', 'x')", [account]),
      ).rejects.toMatchObject({ code: '23505', constraint: 'users_email_key' });
    } finally {
      await client.end();
    }
  });

  it('stops, naming both users, when two rows are one identity under the fold', async () => {
    const { url, migrateRest } = await databaseBeforeNormalising();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>("INSERT INTO accounts (name, plan) VALUES ('Acme', 'pro') RETURNING id");
      // lower() keeps these apart (ß has no upper case in lower()), the fold does not: ß → ss.
      await client.query("INSERT INTO users (account_id, email, password_hash) VALUES ($1, 'straße@example.com', 'x'), ($1, 'strasse@example.com', 'x')", [rows[0]!.id]);
      await expect(migrateRest()).rejects.toThrow(/users \d+ and \d+ have the same normalised email "strasse@example.com"/);
    } finally {
      await client.end();
    }
  });
});
