/** Every Redis key the gateway writes (the client adds REDIS_KEY_PREFIX in front). */
export const redisKeys = {
  ipWindow: (ip: string) => `gw:rl:ip:${ip}`,
  authFailures: (ip: string) => `gw:bf:${ip}`,
  keyMinute: (keyId: string) => `gw:rl:km:${keyId}`,
  keyHour: (keyId: string) => `gw:rl:kh:${keyId}`,
  revoked: (keyId: string) => `gw:revoked:${keyId}`,
};

/** Revocation markers outlive any cached key row by far (the cache keeps a row for at most a minute). */
export const REVOCATION_MARKER_TTL_S = 3600;
