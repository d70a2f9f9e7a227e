import type { Pool } from '@mailer/shared';

/** Reads and writes only the operator CLI needs (listing and plan and password changes). */

export interface AccountListing {
  id: number;
  name: string;
  plan: string;
  api_access: boolean;
  users: number;
  active_keys: number;
  created_at: string;
}

export async function listAccounts(pool: Pool): Promise<AccountListing[]> {
  const { rows } = await pool.query<Omit<AccountListing, 'created_at'> & { created_at: Date }>(
    `SELECT a.id, a.name, a.plan, p.api_access,
            (SELECT count(*)::int FROM users u WHERE u.account_id = a.id) AS users,
            (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL
                AND (k.expires_on IS NULL OR k.expires_on >= (now() AT TIME ZONE 'UTC')::date)) AS active_keys,
            a.created_at
       FROM accounts a JOIN plans p ON p.name = a.plan
      ORDER BY a.id`,
  );
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/** Changes an account's plan; resolves to false when no such account. */
export async function updateAccountPlan(pool: Pool, accountId: number, plan: string): Promise<boolean> {
  const { rowCount } = await pool.query('UPDATE accounts SET plan = $2 WHERE id = $1', [accountId, plan]);
  return rowCount === 1;
}

export interface UserListing {
  id: number;
  account_id: number;
  email: string;
  created_at: string;
}

export async function listUsers(pool: Pool, accountId: number | undefined): Promise<UserListing[]> {
  const { rows } = await pool.query<Omit<UserListing, 'created_at'> & { created_at: Date }>(
    `SELECT id, account_id, email, created_at FROM users WHERE $1::bigint IS NULL OR account_id = $1 ORDER BY id`,
    [accountId ?? null],
  );
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/**
 * Replaces a user's password hash. The account app's sessions carry a stamp of the hash and end at
 * their next request (whoever held the old password is signed out too). False when no such user.
 */
export async function updatePasswordHash(pool: Pool, userId: number, passwordHash: string): Promise<boolean> {
  const { rows } = await pool.query<{ updated: boolean }>(
    `WITH updated AS (UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id)
     SELECT EXISTS (SELECT 1 FROM updated) AS updated`,
    [userId, passwordHash],
  );
  return rows[0]?.updated === true;
}
