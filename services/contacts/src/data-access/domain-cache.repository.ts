import type { Logger } from 'pino';
import type { Redis } from '@mailer/shared';

export type CachedVerdict = 'deliverable' | 'no_mx';

const POSITIVE_TTL_SECONDS = 24 * 60 * 60;
const NEGATIVE_TTL_SECONDS = 10 * 60;

export interface DomainCacheRepository {
  get(domain: string): Promise<CachedVerdict | undefined>;
  set(domain: string, verdict: CachedVerdict): Promise<void>;
}

/**
 * DNS verdicts in Redis: a deliverable domain for a day, an undeliverable one for ten minutes (it
 * may be fixed soon). The cache is an optimisation: while Redis is down every lookup goes to DNS.
 */
export function createDomainCacheRepository(redis: Redis, logger: Logger): DomainCacheRepository {
  const key = (domain: string) => `contacts:mail-domain:${domain}`;
  return {
    async get(domain) {
      try {
        const value = await redis.get(key(domain));
        return value === 'deliverable' || value === 'no_mx' ? value : undefined;
      } catch (error) {
        logger.debug({ err: error }, 'domain cache unavailable');
        return undefined;
      }
    },
    async set(domain, verdict) {
      const ttl = verdict === 'deliverable' ? POSITIVE_TTL_SECONDS : NEGATIVE_TTL_SECONDS;
      await redis.set(key(domain), verdict, 'EX', ttl).catch((error: unknown) => {
        logger.debug({ err: error }, 'domain cache unavailable');
      });
    },
  };
}
