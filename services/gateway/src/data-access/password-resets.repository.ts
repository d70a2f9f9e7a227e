import type { Pool } from '@mailer/shared';

/**
 * Stores a new reset token's hash for `userId` and, in the same transaction, ends every older
 * unused token of that user (only the newest emailed link works). Expired rows of anyone are
 * removed on the way, so the table stays small without a sweeper.
 */
export async function storeResetToken(pool: Pool, userId: number, tokenHash: Buffer, lifetimeSeconds: number): Promise<void> {
  await pool.query(
    `WITH ended AS (UPDATE password_reset_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL),
          swept AS (DELETE FROM password_reset_tokens WHERE expires_at < now() - interval '1 day')
     INSERT INTO password_reset_tokens (token_hash, user_id, expires_at) VALUES ($2, $1, now() + make_interval(secs => $3))`,
    [userId, tokenHash, lifetimeSeconds],
  );
}

export type ResetTokenState = { state: 'usable'; userId: number } | { state: 'unknown' | 'expired' | 'used' };

/** What a token is now, without using it (a mail scanner's GET must not spend it). */
export async function resetTokenState(pool: Pool, tokenHash: Buffer): Promise<ResetTokenState> {
  const { rows } = await pool.query<{ user_id: string; expired: boolean; used: boolean }>(
    'SELECT user_id, expires_at <= now() AS expired, used_at IS NOT NULL AS used FROM password_reset_tokens WHERE token_hash = $1',
    [tokenHash],
  );
  const row = rows[0];
  if (!row) return { state: 'unknown' };
  if (row.used) return { state: 'used' };
  if (row.expired) return { state: 'expired' };
  return { state: 'usable', userId: Number(row.user_id) };
}

/**
 * Spends a usable token and sets the user's password in one transaction: of two redemptions at the
 * same time exactly one finds the row unused. Resolves to the user id, or undefined when the token
 * was not usable.
 */
export async function redeemResetToken(pool: Pool, tokenHash: Buffer, passwordHash: string): Promise<number | undefined> {
  const { rows } = await pool.query<{ user_id: string }>(
    `WITH spent AS (
       UPDATE password_reset_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id)
     UPDATE users SET password_hash = $2 FROM spent WHERE users.id = spent.user_id RETURNING users.id AS user_id`,
    [tokenHash, passwordHash],
  );
  return rows[0] ? Number(rows[0].user_id) : undefined;
}
