import { randomBytes } from 'node:crypto';
import { coalesceWrites, type Redis } from '@mailer/shared';
import { toSeconds, type LimitDecision, type LimitOutcome, type LimitWindowName, type LimitRequest, type LimitSettings } from '../domain/rate-limit';
import { RATE_LIMIT_SCRIPT } from './rate-limit-script';
import { redisKeys } from './redis-keys';

type ScriptReply = [LimitOutcome, number, number, number, number, LimitWindowName, 0 | 1];

interface RedisWithLimiter extends Redis {
  gatewayRateLimit(...args: Array<string | number>): Promise<ScriptReply>;
}

/** Runs the rate-limit script: one round trip to Redis per request, whatever the outcome; the requests of one event-loop turn share a write. */
export class RedisLimiter {
  private readonly instance = randomBytes(6).toString('base64url');
  private sequence = 0;
  private readonly client: RedisWithLimiter;

  constructor(
    redis: Redis,
    private readonly settings: LimitSettings,
  ) {
    // defineCommand sends EVALSHA and falls back to EVAL once if the server lost the script.
    if (!('gatewayRateLimit' in redis)) redis.defineCommand('gatewayRateLimit', { numberOfKeys: 4, lua: RATE_LIMIT_SCRIPT });
    this.client = redis as RedisWithLimiter;
  }

  async check(request: LimitRequest): Promise<LimitDecision> {
    const keyId = request.keyId ?? '-';
    const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    coalesceWrites(this.client);
    const [outcome, limit, remaining, resetMs, nowMs, windowName, blockStarted] = await this.client.gatewayRateLimit(
      redisKeys.ipWindow(request.ip),
      redisKeys.authFailures(request.ip),
      redisKeys.keyLog(keyId),
      redisKeys.revoked(keyId),
      member,
      request.mode,
      this.settings.ipPerMin,
      this.settings.keyPerMin,
      this.settings.keyPerHour,
      this.settings.authFailLimit,
      this.settings.authFailWindowMs,
    );
    const window = { limit, remaining, resetAt: toSeconds(resetMs) };
    if (outcome === 'blocked') {
      return { outcome, window, windowName, retryAfter: toSeconds(resetMs - nowMs), degraded: false, blockStarted: false };
    }
    return { outcome, window, windowName, degraded: false, blockStarted: blockStarted === 1 };
  }
}
