import { randomBytes } from 'node:crypto';
import type { Pool } from '@mailer/shared';
import { createAccount } from '../../src/domain/create-account';
import { createApiKey } from '../../src/domain/manage-api-keys';
import { issuedKeys } from './gateway-harness';

const DAY_MS = 86_400_000;
export const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

export async function anAccount(pool: Pool, plan: 'free' | 'pro' = 'pro') {
  return createAccount(pool, { name: `Account ${randomBytes(4).toString('hex')}`, plan });
}

/** A key of `accountId` (or of a new pro account); returns the plaintext the client would hold. */
export async function aKey(pool: Pool, options: { accountId?: number; plan?: 'free' | 'pro'; expiresOn?: string | null } = {}) {
  const accountId = options.accountId ?? (await anAccount(pool, options.plan ?? 'pro')).id;
  const { key, plaintext } = await createApiKey(pool, {
    accountId,
    name: `key ${randomBytes(3).toString('hex')}`,
    expiresOn: options.expiresOn ?? null,
    allowPast: true,
  });
  issuedKeys.push(plaintext);
  return { accountId, record: key, plaintext };
}
