import type { Pool } from '@mailer/shared';
import { findAccount } from '../data-access/accounts.repository';
import { insertApiKey, listApiKeys, markRevoked, type ApiKeyRecord } from '../data-access/api-keys.repository';
import { generateKey } from './api-key-format';
import { accountNotFound, invalidInput, keyNotFound } from './gateway.errors';
import { keyStatus, utcDate, type KeyStatus } from './key-status';

export type ApiKeyView = ApiKeyRecord & { status: KeyStatus };

const view = (record: ApiKeyRecord): ApiKeyView => ({ ...record, status: keyStatus(record) });

function validExpiry(expiresOn: string | null, allowPast: boolean): string | null {
  if (expiresOn === null) return null;
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(expiresOn) ? new Date(`${expiresOn}T00:00:00Z`) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== expiresOn) {
    throw invalidInput('expires: must be a date YYYY-MM-DD');
  }
  if (!allowPast && expiresOn < utcDate()) throw invalidInput('expires: must not be in the past');
  return expiresOn;
}

/**
 * Creates a key and returns its plaintext, which exists only in this return value.
 * `allowPast` is for operators (the CLI); the settings screen refuses a date in the past.
 */
export async function createApiKey(
  pool: Pool,
  input: { accountId: number; name: string; expiresOn: string | null; allowPast?: boolean },
): Promise<{ key: ApiKeyView; plaintext: string }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw invalidInput('name: must be 1 to 100 characters');
  const expiresOn = validExpiry(input.expiresOn, input.allowPast ?? false);
  if (!(await findAccount(pool, input.accountId))) throw accountNotFound();
  const generated = generateKey();
  const record = await insertApiKey(pool, {
    accountId: input.accountId,
    name,
    keyId: generated.keyId,
    secretHash: generated.secretHash,
    expiresOn,
  });
  return { key: view(record), plaintext: generated.plaintext };
}

export async function listKeys(pool: Pool, accountId: number): Promise<ApiKeyView[]> {
  if (!(await findAccount(pool, accountId))) throw accountNotFound();
  return (await listApiKeys(pool, accountId)).map(view);
}

/**
 * Revokes a key (only within `accountId` when given, so one account cannot revoke another's) and
 * tells every gateway instance at once through `announceRevocation`.
 */
export async function revokeApiKey(
  deps: { pool: Pool; announceRevocation: (keyId: string) => Promise<void> },
  id: number,
  accountId?: number,
): Promise<ApiKeyView> {
  const record = await markRevoked(deps.pool, id, accountId);
  if (!record) throw keyNotFound();
  await deps.announceRevocation(record.keyId);
  return view(record);
}
