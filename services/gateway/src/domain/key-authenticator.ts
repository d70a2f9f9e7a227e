import { timingSafeEqual } from 'node:crypto';
import type { KeyCredentials } from '../data-access/api-keys.repository';
import { hashSecret, keyFromAuthorization } from './api-key-format';
import { isExpired } from './key-status';

export type AuthVerdict =
  | { kind: 'ok' | 'forbidden'; accountId: number; keyRowId: number; keyId: string; fromCache: boolean }
  | { kind: 'invalid'; reason: AuthFailureReason; keyId?: string };

/** Why a key was refused (a metrics label; the client always sees the same 401). */
export type AuthFailureReason = 'missing' | 'malformed' | 'unknown' | 'wrong_secret' | 'revoked' | 'expired';

interface CacheEntry {
  /** Undefined: no key has this id (remembered too, so an unknown id costs what a known one does). */
  credentials: KeyCredentials | undefined;
  loadedAt: number;
}

/** Compared against when the key id is unknown, so both answers do the same hashing and comparing. */
const NO_KEY_HASH = hashSecret('no key has this id');

/**
 * Checks `Authorization: Bearer <key>` with an in-process cache of key rows, so the hot path needs
 * no database query. The cache is only half the story: a revocation is announced in Redis and the
 * per-request Redis script reports it (see rate-limit script), and the caller bypasses the cache
 * whenever Redis cannot vouch for it.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly lookup: (keyId: string) => Promise<KeyCredentials | undefined>,
    private readonly options: { ttlMs: number; maxEntries: number } = { ttlMs: 60_000, maxEntries: 10_000 },
  ) {}

  async authenticate(authorization: string | undefined, { bypassCache = false } = {}): Promise<AuthVerdict> {
    const parsed = keyFromAuthorization(authorization);
    if (!parsed) return { kind: 'invalid', reason: authorization === undefined ? 'missing' : 'malformed' };
    const cached = bypassCache ? undefined : this.fresh(parsed.keyId);
    const credentials = cached ? cached.credentials : await this.load(parsed.keyId);
    // The same work whether the id exists or not (hash, constant-time compare, the same limiter
    // call): the answer's timing must not tell an attacker which key ids are real.
    const matches = timingSafeEqual(hashSecret(parsed.secret), credentials?.secretHash ?? NO_KEY_HASH);
    if (!credentials) return { kind: 'invalid', reason: 'unknown', keyId: parsed.keyId };
    if (!matches) return { kind: 'invalid', reason: 'wrong_secret', keyId: parsed.keyId };
    if (credentials.revoked) return { kind: 'invalid', reason: 'revoked', keyId: parsed.keyId };
    if (isExpired(credentials.expiresOn)) return { kind: 'invalid', reason: 'expired', keyId: parsed.keyId };
    return {
      kind: credentials.apiAccess ? 'ok' : 'forbidden',
      accountId: credentials.accountId,
      keyRowId: credentials.id,
      keyId: credentials.keyId,
      fromCache: cached !== undefined,
    };
  }

  evict(keyId: string): void {
    this.cache.delete(keyId);
  }

  clear(): void {
    this.cache.clear();
  }

  private fresh(keyId: string): CacheEntry | undefined {
    const entry = this.cache.get(keyId);
    if (!entry) return undefined;
    if (Date.now() - entry.loadedAt > this.options.ttlMs) {
      this.cache.delete(keyId);
      return undefined;
    }
    return entry;
  }

  private async load(keyId: string): Promise<KeyCredentials | undefined> {
    const credentials = await this.lookup(keyId);
    // Map keeps insertion order: dropping the first entry drops the oldest load.
    if (this.cache.size >= this.options.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(keyId, { credentials, loadedAt: Date.now() });
    return credentials;
  }
}
