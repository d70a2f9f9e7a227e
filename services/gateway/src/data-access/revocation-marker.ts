import type { Redis } from '@mailer/shared';
import { REVOCATION_MARKER_TTL_S, redisKeys } from './redis-keys';

/**
 * Announces a revocation to every gateway instance: the rate-limit script (run on every request)
 * sees the marker and refuses the key even where its row is still cached.
 */
export async function markRevokedInRedis(redis: Redis, keyId: string): Promise<void> {
  await redis.set(redisKeys.revoked(keyId), '1', 'EX', REVOCATION_MARKER_TTL_S);
}
