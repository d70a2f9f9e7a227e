import type { Pool } from '@mailer/shared';

export interface SessionRecord {
  userId: number;
  accountId: number;
  email: string;
  csrfToken: string;
}

export async function insertSession(
  pool: Pool,
  input: { tokenHash: Buffer; userId: number; csrfToken: string; ttlSeconds: number },
): Promise<void> {
  await pool.query(
    `INSERT INTO sessions (token_hash, user_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [input.tokenHash, input.userId, input.csrfToken, input.ttlSeconds],
  );
}

export async function findSession(pool: Pool, tokenHash: Buffer): Promise<SessionRecord | undefined> {
  const { rows } = await pool.query<{ user_id: number; account_id: number; email: string; csrf_token: string }>(
    `SELECT s.user_id, u.account_id, u.email, s.csrf_token
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [tokenHash],
  );
  const row = rows[0];
  return row ? { userId: row.user_id, accountId: row.account_id, email: row.email, csrfToken: row.csrf_token } : undefined;
}

export async function deleteSession(pool: Pool, tokenHash: Buffer): Promise<void> {
  await pool.query('DELETE FROM sessions WHERE token_hash = $1 OR expires_at < now()', [tokenHash]);
}
