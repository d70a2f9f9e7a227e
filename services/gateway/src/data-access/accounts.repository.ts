import type { Pool } from '@mailer/shared';

export interface Account {
  id: number;
  name: string;
  plan: string;
  apiAccess: boolean;
  createdAt: Date;
}

interface AccountRow {
  id: number;
  name: string;
  plan: string;
  api_access: boolean;
  created_at: Date;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  apiAccess: row.api_access,
  createdAt: row.created_at,
});

export async function insertAccount(pool: Pool, input: { name: string; plan: string }): Promise<Account> {
  const { rows } = await pool.query<AccountRow>(
    `WITH inserted AS (INSERT INTO accounts (name, plan) VALUES ($1, $2) RETURNING id, name, plan, created_at)
     SELECT inserted.id, inserted.name, inserted.plan, plans.api_access, inserted.created_at
       FROM inserted JOIN plans ON plans.name = inserted.plan`,
    [input.name, input.plan],
  );
  return toAccount(rows[0]!);
}

export async function findAccount(pool: Pool, id: number): Promise<Account | undefined> {
  const { rows } = await pool.query<AccountRow>(
    `SELECT accounts.id, accounts.name, accounts.plan, plans.api_access, accounts.created_at
       FROM accounts JOIN plans ON plans.name = accounts.plan
      WHERE accounts.id = $1`,
    [id],
  );
  return rows[0] ? toAccount(rows[0]) : undefined;
}

export async function planExists(pool: Pool, plan: string): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM plans WHERE name = $1', [plan]);
  return rowCount === 1;
}
