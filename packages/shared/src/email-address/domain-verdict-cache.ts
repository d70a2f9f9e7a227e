import type { Logger } from 'pino';
import type { Redis } from '../redis/redis-client';

export type CachedVerdict = 'deliverable' | 'no_mx';

const POSITIVE_TTL_SECONDS = 24 * 60 * 60;
const NEGATIVE_TTL_SECONDS = 10 * 60;

/** How long this process reuses a verdict it read from Redis before asking Redis again. */
const LOCAL_TTL_MS = 30_000;
const LOCAL_MAX_ENTRIES = 10_000;

export interface DomainVerdictCache {
  get(domain: string): Promise<CachedVerdict | undefined>;
  set(domain: string, verdict: CachedVerdict): Promise<void>;
}

/**
 * DNS verdicts in Redis: a deliverable domain for a day, an undeliverable one for ten minutes (it
 * may be fixed soon). The cache is an optimisation: while Redis is down every lookup goes to DNS.
 * A verdict Redis held is also kept in process for 30 s, so a burst of sign-ups at one domain
 * costs one Redis round trip, not one per contact; Redis stays the shared truth (only what it
 * answered or stored is kept, so with Redis down nothing is cached at all).
 */
export function createDomainVerdictCache(redis: Redis, logger: Logger): DomainVerdictCache {
  // One key space for every service that asks: contacts and the events ingress share each other's answers.
  const key = (domain: string) => `mail-domain:${domain}`;
  const local = new Map<string, { verdict: CachedVerdict; until: number }>();
  const remember = (domain: string, verdict: CachedVerdict) => {
    // Map keeps insertion order: dropping the first entry drops the oldest.
    if (local.size >= LOCAL_MAX_ENTRIES) local.delete(local.keys().next().value!);
    local.set(domain, { verdict, until: Date.now() + LOCAL_TTL_MS });
  };
  return {
    async get(domain) {
      const held = local.get(domain);
      if (held && held.until > Date.now()) return held.verdict;
      if (held) local.delete(domain);
      try {
        const value = await redis.get(key(domain));
        if (value !== 'deliverable' && value !== 'no_mx') return undefined;
        remember(domain, value);
        return value;
      } catch (error) {
        logger.debug({ err: error }, 'domain cache unavailable');
        return undefined;
      }
    },
    async set(domain, verdict) {
      const ttl = verdict === 'deliverable' ? POSITIVE_TTL_SECONDS : NEGATIVE_TTL_SECONDS;
      await redis.set(key(domain), verdict, 'EX', ttl).then(
        () => remember(domain, verdict),
        (error: unknown) => {
          logger.debug({ err: error }, 'domain cache unavailable');
        },
      );
    },
  };
}
