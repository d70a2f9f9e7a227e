import { randomBytes } from 'node:crypto';
import type { Queryable } from './queryable';

/** The account's form token, made on first use. */
export async function formToken(db: Queryable, accountId: number): Promise<string> {
  const { rows } = await db.query<{ token: string }>(
    `INSERT INTO subscribe_forms (account_id, token) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET account_id = EXCLUDED.account_id RETURNING token`,
    [accountId, randomBytes(18).toString('base64url')],
  );
  return rows[0]!.token;
}

export async function accountOfForm(db: Queryable, token: string): Promise<number | undefined> {
  const { rows } = await db.query<{ account_id: string }>('SELECT account_id FROM subscribe_forms WHERE token = $1', [token]);
  return rows[0] ? Number(rows[0].account_id) : undefined;
}
