import type { Pool, Redis } from '@mailer/shared';
import { AppError } from '@mailer/shared';
import { markRevokedInRedis } from '../data-access/revocation-marker';
import { createAccount } from '../domain/create-account';
import { createUser } from '../domain/create-user';
import { createApiKey, listKeys, revokeApiKey, type ApiKeyView } from '../domain/manage-api-keys';
import { unlockUser } from '../domain/unlock-user';

export interface CommandDeps {
  pool: Pool;
  /** Connects Redis on demand (only revocation needs it). */
  redis: () => Promise<Redis>;
  warn: (message: string) => void;
}

type Options = Record<string, string | undefined>;

export class UsageError extends Error {}

export function required(options: Options, name: string): string {
  const value = options[name];
  if (value === undefined || value === '') throw new UsageError(`missing --${name}`);
  return value;
}

export function id(options: Options, name: string): number {
  const value = required(options, name);
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`--${name} must be a positive integer`);
  return Number(value);
}

const keyJson = (key: ApiKeyView) => ({
  id: key.id,
  account_id: key.accountId,
  name: key.name,
  key_id: key.keyId,
  status: key.status,
  expires_on: key.expiresOn,
  created_at: key.createdAt.toISOString(),
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

/** A command: its option names and what it does. Output is plain JSON data. */
export interface CommandSpec {
  options: string[];
  run: (deps: CommandDeps, o: Options) => Promise<unknown>;
}

/** Every command, by `group command`. */
export const commands: Record<string, CommandSpec> = {
  'accounts create': {
    options: ['name', 'plan'],
    run: async ({ pool }, o) => {
      const plan = required(o, 'plan');
      if (plan !== 'free' && plan !== 'pro') throw new UsageError('--plan must be free or pro');
      const account = await createAccount(pool, { name: required(o, 'name'), plan });
      return { id: account.id, name: account.name, plan: account.plan, api_access: account.apiAccess, created_at: account.createdAt.toISOString() };
    },
  },
  'users create': {
    options: ['account', 'email', 'password'],
    run: async ({ pool }, o) => {
      const user = await createUser(pool, { accountId: id(o, 'account'), email: required(o, 'email'), password: required(o, 'password') });
      return { id: user.id, account_id: user.accountId, email: user.email, created_at: user.createdAt.toISOString() };
    },
  },
  'keys create': {
    options: ['account', 'name', 'expires'],
    run: async ({ pool }, o) => {
      const { key, plaintext } = await createApiKey(pool, {
        accountId: id(o, 'account'),
        name: required(o, 'name'),
        expiresOn: o.expires ?? null,
        allowPast: true,
      });
      return { ...keyJson(key), key: plaintext, note: 'store this key now: it is not shown again' };
    },
  },
  'keys list': {
    options: ['account'],
    run: async ({ pool }, o) => (await listKeys(pool, id(o, 'account'))).map(keyJson),
  },
  'keys revoke': {
    options: ['id'],
    run: async ({ pool, redis, warn }, o) => {
      const key = await revokeApiKey(
        {
          pool,
          announceRevocation: async (keyId) => {
            try {
              await markRevokedInRedis(await redis(), keyId);
            } catch {
              warn('warning: Redis unreachable; gateways holding this key in cache may accept it for up to a minute');
            }
          },
        },
        id(o, 'id'),
      );
      return keyJson(key);
    },
  },
  'users unlock': {
    options: ['email'],
    run: async (deps, o) => unlockUser(deps, required(o, 'email')),
  },
};

/** A domain refusal as the one line an operator reads. */
export function describeFailure(error: unknown): string | undefined {
  if (error instanceof UsageError) return error.message;
  if (error instanceof AppError) return error.messages.join('; ');
  return undefined;
}

