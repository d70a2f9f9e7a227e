import type { Queryable } from './queryable';

export interface SendingSettings {
  rate_per_second: number | null;
  from_name: string | null;
  from_address: string | null;
}

export const NO_SETTINGS: SendingSettings = { rate_per_second: null, from_name: null, from_address: null };

export async function findSendingSettings(db: Queryable, accountId: number): Promise<SendingSettings> {
  const { rows } = await db.query<SendingSettings>(
    'SELECT rate_per_second, from_name, from_address FROM sending_settings WHERE account_id = $1',
    [accountId],
  );
  return rows[0] ?? NO_SETTINGS;
}

/** Sets the given fields (undefined keeps, null clears back to the default). */
export async function saveSendingSettings(db: Queryable, accountId: number, settings: Partial<SendingSettings>): Promise<SendingSettings> {
  const current = await findSendingSettings(db, accountId);
  const next = { ...current, ...Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) } as SendingSettings;
  await db.query(
    `INSERT INTO sending_settings (account_id, rate_per_second, from_name, from_address) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id) DO UPDATE SET rate_per_second = $2, from_name = $3, from_address = $4, updated_at = now()`,
    [accountId, next.rate_per_second, next.from_name, next.from_address],
  );
  return next;
}
