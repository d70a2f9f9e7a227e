import { createRedis, triggerRoutesSetKey, TRIGGER_ROUTES_WHOLE, type Logger, type Redis } from '@mailer/shared';

/** Five of automation's periodic reconciles (one a minute): a set nobody renews stops being trusted after that. */
const TRUSTED_FOR_MS = 5 * 60_000;

/**
 * The bound routing keys as the gateway reads them in Redis (`triggerRoutesSetKey`). Written under
 * the routing lock only, like the trigger_routes table, so two writers never interleave.
 */
export class TriggerRoutesRecord {
  constructor(
    private readonly redis: Redis,
    /** `triggerRoutesSetKey` of the broker the keys are bound on. */
    private readonly key: string,
    /** How long a reconciled set is trusted without another reconcile renewing it. */
    private readonly trustedForMs = TRUSTED_FOR_MS,
  ) {}

  /**
   * Adds keys about to be bound, before their workflow commits; rejects when Redis did not take
   * them, so the write is refused rather than its events left unpublished by a gateway reading an
   * older whole set.
   */
  async add(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.sadd(this.key, ...keys);
  }

  /** Replaces the set with every live key and marks it whole, renewing its expiry; all at once or not at all. */
  async replace(keys: readonly string[]): Promise<void> {
    const { key } = this;
    const results = await this.redis.multi().del(key).sadd(key, TRIGGER_ROUTES_WHOLE, ...keys).pexpire(key, this.trustedForMs).exec();
    const failure = results?.find(([error]) => error !== null)?.[0];
    if (results === null || failure) throw failure ?? new Error('the trigger routes transaction was discarded');
  }
}

/** The settings a record is made from: the service's Redis and the broker its keys are bound on. */
export interface TriggerRoutesRecordSettings {
  REDIS_URL: string;
  REDIS_KEY_PREFIX: string;
  AMQP_URL: string;
  BROKER_NAMESPACE: string;
}

/** A record on a Redis connection of its own (only this uses Redis in automation); disconnect `redis` when done. */
export function connectTriggerRoutesRecord(settings: TriggerRoutesRecordSettings, logger: Logger): { record: TriggerRoutesRecord; redis: Redis } {
  const redis = createRedis(settings.REDIS_URL, logger, { keyPrefix: settings.REDIS_KEY_PREFIX });
  const key = triggerRoutesSetKey({ amqpUrl: settings.AMQP_URL, namespace: settings.BROKER_NAMESPACE });
  return { record: new TriggerRoutesRecord(redis, key), redis };
}
