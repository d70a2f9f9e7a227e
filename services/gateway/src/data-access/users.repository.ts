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

export async function findUserByEmail(pool: Pool, email: string): Promise<UserWithHash | undefined> {
  const { rows } = await pool.query<UserRow>(
    'SELECT id, account_id, email, password_hash, created_at FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return rows[0] ? toUser(rows[0]) : undefined;
}
