import type { Queryable } from './queryable';

/** Whether the account asked for double opt-in (off unless set). */
export async function doubleOptInEnabled(db: Queryable, accountId: number): Promise<boolean> {
  const { rows } = await db.query<{ enabled: boolean }>({
    name: 'contacts.double-opt-in-enabled',
    text: 'SELECT enabled FROM double_opt_in_settings WHERE account_id = $1',
    values: [accountId],
  });
  return rows[0]?.enabled ?? false;
}

export async function saveDoubleOptIn(db: Queryable, accountId: number, enabled: boolean): Promise<void> {
  await db.query(
    `INSERT INTO double_opt_in_settings (account_id, enabled) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()`,
    [accountId, enabled],
  );
}

/** Marks a freshly created contact pending (not subscribed) in the transaction that created it. */
export async function markPending(db: Queryable, accountId: number, contactId: number): Promise<void> {
  await db.query("UPDATE contacts SET subscribed = false, confirmation = 'pending' WHERE account_id = $1 AND id = $2", [accountId, contactId]);
}

/**
 * The recipient confirmed: subscribed, with the consent record. Only a pending contact changes, so
 * a second click (or a redelivered message) changes nothing; false then.
 */
export async function markConfirmed(db: Queryable, accountId: number, contactId: number, at: string, from: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE contacts SET subscribed = true, confirmation = 'confirmed', confirmed_at = $3, confirmed_from = $4, updated_at = now()
      WHERE account_id = $1 AND id = $2 AND confirmation = 'pending'`,
    [accountId, contactId, at, from],
  );
  return (rowCount ?? 0) > 0;
}
