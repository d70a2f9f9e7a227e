import type { Pool } from '@mailer/shared';

export interface SessionRecord {
  userId: number;
  accountId: number;
  email: string;
  credentialsStamp: string;
  csrfToken: string;
}

interface SessionRow {
  user_id: string;
  account_id: string;
  email: string;
  credentials_stamp: string;
  csrf_token: string;
}

export async function insertSession(pool: Pool, tokenHash: Buffer, session: SessionRecord, ttlSeconds: number): Promise<void> {
  await pool.query(
    `INSERT INTO sessions (token_hash, user_id, account_id, email, credentials_stamp, csrf_token, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
    [tokenHash, session.userId, session.accountId, session.email, session.credentialsStamp, session.csrfToken, ttlSeconds],
  );
}

export async function findSession(pool: Pool, tokenHash: Buffer): Promise<SessionRecord | undefined> {
  const { rows } = await pool.query<SessionRow>(
    `SELECT user_id, account_id, email, credentials_stamp, csrf_token FROM sessions WHERE token_hash = $1 AND expires_at > now()`,
    [tokenHash],
  );
  const row = rows[0];
  return row
    ? { userId: Number(row.user_id), accountId: Number(row.account_id), email: row.email, credentialsStamp: row.credentials_stamp, csrfToken: row.csrf_token }
    : undefined;
}

/** Ends one session, and sweeps expired ones while at it (the table never grows without bound). */
export async function deleteSession(pool: Pool, tokenHash: Buffer): Promise<void> {
  await pool.query('DELETE FROM sessions WHERE token_hash = $1 OR expires_at < now()', [tokenHash]);
}

/** After a password change: every other session of the user ends, this one takes the new stamp. */
export async function keepOnlySession(pool: Pool, tokenHash: Buffer, userId: number, credentialsStamp: string): Promise<void> {
  await pool.query(
    `WITH ended AS (DELETE FROM sessions WHERE user_id = $2 AND token_hash <> $1)
     UPDATE sessions SET credentials_stamp = $3 WHERE token_hash = $1`,
    [tokenHash, userId, credentialsStamp],
  );
}
