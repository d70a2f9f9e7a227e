import { emailKey } from '@mailer/shared';
import type { SuppressionReason } from '../domain/contact';
import type { Queryable } from './queryable';

/**
 * Puts the address on the account's suppression list unless a standing entry already says no
 * (the first reason is kept). Resolves to true when a new entry was written.
 */
export async function suppressAddress(
  db: Queryable,
  accountId: number,
  email: string,
  reason: SuppressionReason,
  source: string,
): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'suppressions.add',
    text: `INSERT INTO suppressions (account_id, address, reason, source) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, address) WHERE lifted_at IS NULL DO NOTHING`,
    values: [accountId, emailKey(email), reason, source],
  });
  return (rowCount ?? 0) > 0;
}

/** Lifts the standing entry, keeping it as the record of who lifted it; its reason, or undefined if none stood. */
export async function liftSuppression(
  db: Queryable,
  accountId: number,
  email: string,
  liftedBy: string,
): Promise<SuppressionReason | undefined> {
  const { rows } = await db.query<{ reason: SuppressionReason }>({
    name: 'suppressions.lift',
    text: `UPDATE suppressions SET lifted_at = now(), lifted_by = $3
     WHERE account_id = $1 AND address = $2 AND lifted_at IS NULL RETURNING reason`,
    values: [accountId, emailKey(email), liftedBy],
  });
  return rows[0]?.reason;
}

/** Why the address may not be emailed, or null when nothing stands against it. */
export async function standingSuppression(
  db: Queryable,
  accountId: number,
  email: string,
): Promise<SuppressionReason | null> {
  const { rows } = await db.query<{ reason: SuppressionReason }>({
    name: 'suppressions.standing',
    text: 'SELECT reason FROM suppressions WHERE account_id = $1 AND address = $2 AND lifted_at IS NULL',
    values: [accountId, emailKey(email)],
  });
  return rows[0]?.reason ?? null;
}
