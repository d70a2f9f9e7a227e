import type { Logger } from 'pino';
import type { Redis } from '@mailer/shared';
import { MemoryLimiter } from '../domain/memory-limiter';
import type { LimitDecision, LimitRequest, LimitSettings } from '../domain/rate-limit';
import { RedisLimiter } from './redis-limiter';

const REMINDER_MS = 30_000;

/**
 * Redis decides while it answers; when it does not, the per-process limiter takes over so the
 * gateway keeps serving (never a 500 for a limiter outage). The outage is logged at error level
 * when it starts, every 30 s while it lasts, and when it ends.
 */
export class ResilientLimiter {
  private readonly redisLimiter: RedisLimiter;
  private readonly memory: MemoryLimiter;
  private degradedSince: number | undefined;
  private lastReminder = 0;
  private fallbackCount = 0;

  constructor(
    private readonly redis: Redis,
    settings: LimitSettings,
    private readonly logger: Logger,
  ) {
    this.redisLimiter = new RedisLimiter(redis, settings);
    this.memory = new MemoryLimiter(settings);
  }

  /** Whether Redis can vouch for cached keys right now (revocation markers are checked there). */
  redisUsable(): boolean {
    return this.redis.status === 'ready';
  }

  async check(request: LimitRequest): Promise<LimitDecision> {
    if (this.redisUsable()) {
      try {
        const decision = await this.redisLimiter.check(request);
        this.recovered();
        return decision;
      } catch (error) {
        this.fellBack(error);
      }
    } else {
      this.fellBack(new Error(`Redis connection is ${this.redis.status}`));
    }
    return this.memory.check(request);
  }

  stop(): void {
    this.memory.stop();
  }

  private fellBack(error: unknown): void {
    const now = Date.now();
    this.fallbackCount++;
    if (this.degradedSince === undefined) {
      this.degradedSince = now;
      this.lastReminder = now;
      this.logger.error(
        { err: error },
        'RATE LIMITER DEGRADED: Redis unreachable; rate limits and brute-force block now count per process',
      );
    } else if (now - this.lastReminder >= REMINDER_MS) {
      this.lastReminder = now;
      this.logger.error(
        { err: error, sinceMs: now - this.degradedSince, fallbackDecisions: this.fallbackCount },
        'RATE LIMITER STILL DEGRADED: Redis unreachable',
      );
    }
  }

  private recovered(): void {
    if (this.degradedSince === undefined) return;
    this.logger.warn(
      { degradedMs: Date.now() - this.degradedSince, fallbackDecisions: this.fallbackCount },
      'rate limiter back on Redis',
    );
    this.degradedSince = undefined;
    this.fallbackCount = 0;
  }
}
