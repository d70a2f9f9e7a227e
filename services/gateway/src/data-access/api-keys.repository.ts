import type { Pool } from '@mailer/shared';

export interface ApiKeyRecord {
  id: number;
  accountId: number;
  name: string;
  keyId: string;
  /** YYYY-MM-DD (UTC) or null: read as text so no time zone ever shifts the day. */
  expiresOn: string | null;
  revokedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What authentication needs about a key, in one indexed query. */
export interface KeyCredentials {
  id: number;
  accountId: number;
  keyId: string;
  secretHash: Buffer;
  expiresOn: string | null;
  revoked: boolean;
  apiAccess: boolean;
}

interface ApiKeyRow {
  id: number;
  account_id: number;
  name: string;
  key_id: string;
  expires_on: string | null;
  revoked_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = 'id, account_id, name, key_id, expires_on::text AS expires_on, revoked_at, created_at, last_used_at';

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  keyId: row.key_id,
  expiresOn: row.expires_on,
  revokedAt: row.revoked_at,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export async function insertApiKey(
  pool: Pool,
  input: { accountId: number; name: string; keyId: string; secretHash: Buffer; expiresOn: string | null },
): Promise<ApiKeyRecord> {
  const { rows } = await pool.query<ApiKeyRow>(
    `INSERT INTO api_keys (account_id, name, key_id, secret_hash, expires_on) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${COLUMNS}`,
    [input.accountId, input.name, input.keyId, input.secretHash, input.expiresOn],
  );
  return toRecord(rows[0]!);
}

export async function listApiKeys(pool: Pool, accountId: number): Promise<ApiKeyRecord[]> {
  const { rows } = await pool.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY id DESC`,
    [accountId],
  );
  return rows.map(toRecord);
}

export async function findApiKey(pool: Pool, id: number): Promise<ApiKeyRecord | undefined> {
  const { rows } = await pool.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** Marks a key revoked (keeps the first revocation time); scoped to an account when one is given. */
export async function markRevoked(pool: Pool, id: number, accountId?: number): Promise<ApiKeyRecord | undefined> {
  const { rows } = await pool.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
      WHERE id = $1 AND ($2::bigint IS NULL OR account_id = $2)
      RETURNING ${COLUMNS}`,
    [id, accountId ?? null],
  );
  return rows[0] ? toRecord(rows[0]) : undefined;
}

export async function findCredentials(pool: Pool, keyId: string): Promise<KeyCredentials | undefined> {
  const { rows } = await pool.query<{
    id: number;
    account_id: number;
    key_id: string;
    secret_hash: Buffer;
    expires_on: string | null;
    revoked: boolean;
    api_access: boolean;
  }>(
    `SELECT k.id, k.account_id, k.key_id, k.secret_hash, k.expires_on::text AS expires_on,
            k.revoked_at IS NOT NULL AS revoked, p.api_access
       FROM api_keys k JOIN accounts a ON a.id = k.account_id JOIN plans p ON p.name = a.plan
      WHERE k.key_id = $1`,
    [keyId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    secretHash: row.secret_hash,
    expiresOn: row.expires_on,
    revoked: row.revoked,
    apiAccess: row.api_access,
  };
}

/** Records use; at most once a minute per key, so a busy key does not write on every request. */
export async function touchLastUsed(pool: Pool, id: number): Promise<void> {
  await pool.query(
    `UPDATE api_keys SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [id],
  );
}
