import pg from 'pg';

const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

/** Creates the database named in `databaseUrl` when it is missing (concurrent callers are fine). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('database URL names no database');
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
  } finally {
    await client.end();
  }
}

/** Drops a database; used by test teardown only, and refuses a name that is not a test database. */
export async function dropTestDatabase(postgresUrl: string, name: string): Promise<void> {
  if (!name.includes('_test_')) throw new Error(`refusing to drop ${name}: not a test database`);
  const maintenance = new URL(postgresUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
