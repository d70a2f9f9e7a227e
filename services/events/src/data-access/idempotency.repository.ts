import { createHash } from 'node:crypto';
import type { Logger, Redis } from '@mailer/shared';
import type { AcceptedEvent } from '../domain/event-input';

/** What is stored per (account, Idempotency-Key): a placeholder while publishing, then the answer. */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string }
  | { state: 'done'; fingerprint: string; response: AcceptedEvent };

export type Reservation = { kind: 'reserved' } | { kind: 'existing'; record: IdempotencyRecord } | { kind: 'unavailable' };

/** A placeholder outlives any publish (confirm timeout 5 s), yet frees the key soon after a crash. */
const PENDING_TTL_S = 30;

/** Idempotency keys in Redis: `SET NX` makes exactly one of several concurrent duplicates the publisher. */
export class IdempotencyRepository {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    private readonly logger: Logger,
  ) {}

  async reserve(accountId: number, key: string, fingerprint: string): Promise<Reservation> {
    try {
      const placeholder: IdempotencyRecord = { state: 'pending', fingerprint };
      const set = await this.redis.set(this.redisKey(accountId, key), JSON.stringify(placeholder), 'EX', PENDING_TTL_S, 'NX');
      if (set === 'OK') return { kind: 'reserved' };
      const record = await this.find(accountId, key);
      // Expired between SET and GET: the caller simply tries again.
      return record ? { kind: 'existing', record } : this.reserve(accountId, key, fingerprint);
    } catch (error) {
      this.logger.warn({ err: error }, 'idempotency store unreachable');
      return { kind: 'unavailable' };
    }
  }

  async find(accountId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const raw = await this.redis.get(this.redisKey(accountId, key));
    return raw ? (JSON.parse(raw) as IdempotencyRecord) : undefined;
  }

  async complete(accountId: number, key: string, fingerprint: string, response: AcceptedEvent): Promise<void> {
    const record: IdempotencyRecord = { state: 'done', fingerprint, response };
    try {
      await this.redis.set(this.redisKey(accountId, key), JSON.stringify(record), 'EX', this.ttlSeconds);
    } catch (error) {
      // The event is stored; only the replay is lost (a retry would publish a duplicate event).
      this.logger.warn({ err: error }, 'could not record the idempotent answer');
    }
  }

  /** Frees the key after a failed publish, so the client's retry may publish. */
  async release(accountId: number, key: string): Promise<void> {
    await this.redis.del(this.redisKey(accountId, key)).catch(() => undefined);
  }

  // Hashing bounds the key length and keeps client-chosen text out of Redis key names.
  private redisKey(accountId: number, key: string): string {
    return `events:idempotency:${accountId}:${createHash('sha256').update(key).digest('hex')}`;
  }
}
