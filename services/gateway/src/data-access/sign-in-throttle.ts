import { createHash } from 'node:crypto';
import type { Redis } from '@mailer/shared';
import { limitAddress } from '../domain/limit-address';
import { RELEASE_SCRIPT, RESERVE_SCRIPT } from './sign-in-throttle-script';

export interface SignInLimits {
  /** Failed sign-ins one address (an IPv4 address, an IPv6 /64) may make in a window, any account. */
  perAddress: number;
  /** Failed sign-ins one user may receive in a window, from all addresses together (the lock). */
  perUser: number;
  windowSeconds: number;
}

interface RedisWithThrottle extends Redis {
  signInReserve(addressKey: string, userKey: string, addressLimit: number, userLimit: number, window: number): Promise<number>;
  signInRelease(addressKey: string, userKey: string): Promise<number>;
}

const SIGN_IN_PREFIX = 'gw:signin';
const userKey = (normalisedEmail: string, prefix = SIGN_IN_PREFIX) =>
  `${prefix}:user:${createHash('sha256').update(normalisedEmail).digest('base64url')}`;
const addressKey = (ip: string, prefix = SIGN_IN_PREFIX) => `${prefix}:addr:${limitAddress(ip)}`;

/**
 * Failed settings sign-ins, counted per address and per user. The address limit is the lower one,
 * so one stranger is stopped (for the window) long before the user is locked; only many addresses
 * together can lock a user, and then only until the window ends or an operator runs `users unlock`.
 * Each attempt is charged before its password is checked, in one Redis script, so parallel
 * attempts cannot overshoot. While Redis is unreachable this process counts alone (same rules).
 */
export class SignInThrottle {
  private readonly local = new Map<string, { count: number; until: number }>();
  private readonly client: RedisWithThrottle;

  constructor(
    redis: Redis,
    private readonly limits: SignInLimits,
    /** Another prefix counts something else the same way (password reset requests: `gw:reset`). */
    private readonly prefix = SIGN_IN_PREFIX,
  ) {
    if (!('signInReserve' in redis)) {
      redis.defineCommand('signInReserve', { numberOfKeys: 2, lua: RESERVE_SCRIPT });
      redis.defineCommand('signInRelease', { numberOfKeys: 2, lua: RELEASE_SCRIPT });
    }
    this.client = redis as RedisWithThrottle;
  }

  /**
   * Charges one attempt for `ip` against the user `normalisedEmail` and returns 0, or, when either
   * is over its limit, charges nothing and returns the seconds to wait.
   */
  async reserve(ip: string, normalisedEmail: string): Promise<number> {
    const keys = [addressKey(ip, this.prefix), userKey(normalisedEmail, this.prefix)] as const;
    if (this.client.status === 'ready') {
      try {
        return await this.client.signInReserve(...keys, this.limits.perAddress, this.limits.perUser, this.limits.windowSeconds);
      } catch {
        // Fall through: counted in this process.
      }
    }
    return this.reserveLocally(keys);
  }

  /** The attempt signed in: it was not a failure, so its charge is given back. */
  async succeeded(ip: string, normalisedEmail: string): Promise<void> {
    const keys = [addressKey(ip, this.prefix), userKey(normalisedEmail, this.prefix)] as const;
    for (const key of keys) {
      const entry = this.local.get(key);
      if (entry && entry.count > 0) entry.count--;
    }
    if (this.client.status !== 'ready') return;
    await this.client.signInRelease(...keys).catch(() => undefined);
  }

  /** The operator's way back in for a locked user: forget every failure charged to them. */
  static async unlock(redis: Redis, normalisedEmail: string): Promise<boolean> {
    return (await redis.del(userKey(normalisedEmail))) > 0;
  }

  private reserveLocally(keys: readonly [string, string]): number {
    const now = Date.now();
    const limits = [this.limits.perAddress, this.limits.perUser];
    const entries = keys.map((key) => {
      const entry = this.local.get(key);
      return entry && entry.until > now ? entry : undefined;
    });
    const over = entries.filter((entry, i) => entry !== undefined && entry.count >= limits[i]!);
    if (over.length > 0) return Math.max(1, Math.ceil((Math.max(...over.map((entry) => entry!.until)) - now) / 1000));
    if (this.local.size > 100_000) this.local.clear();
    keys.forEach((key, i) => {
      const entry = entries[i];
      if (entry) entry.count++;
      else this.local.set(key, { count: 1, until: now + this.limits.windowSeconds * 1000 });
    });
    return 0;
  }
}
