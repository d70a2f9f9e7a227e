import type { Pool } from '@mailer/shared';

export interface User {
  id: number;
  accountId: number;
  email: string;
  createdAt: Date;
}

export interface UserWithHash extends User {
  passwordHash: string;
}

interface UserRow {
  id: number;
  account_id: number;
  email: string;
  password_hash: string;
  created_at: Date;
}

const toUser = (row: UserRow): UserWithHash => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
});

export const USERS_EMAIL_CONSTRAINT = 'users_email_key';

/** `input.email` must come from `normaliseEmail` (the one stored form). */
export async function insertUser(
  pool: Pool,
  input: { accountId: number; email: string; passwordHash: string },
): Promise<User> {
  const { rows } = await pool.query<UserRow>(
    `INSERT INTO users (account_id, email, password_hash) VALUES ($1, $2, $3)
     RETURNING id, account_id, email, password_hash, created_at`,
    [input.accountId, input.email, input.passwordHash],
  );
  const { passwordHash: _hash, ...user } = toUser(rows[0]!);
  return user;
}

/** `normalisedEmail` must come from `normaliseEmail`: rows are stored in that form, so equality is the match. */
export async function findUserByEmail(pool: Pool, normalisedEmail: string): Promise<UserWithHash | undefined> {
  const { rows } = await pool.query<UserRow>(
    'SELECT id, account_id, email, password_hash, created_at FROM users WHERE email = $1',
    [normalisedEmail],
  );
  return rows[0] ? toUser(rows[0]) : undefined;
}

export async function findUserById(pool: Pool, id: number): Promise<UserWithHash | undefined> {
  const { rows } = await pool.query<UserRow>('SELECT id, account_id, email, password_hash, created_at FROM users WHERE id = $1', [id]);
  return rows[0] ? toUser(rows[0]) : undefined;
}
