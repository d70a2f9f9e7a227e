/** Every Redis key the gateway writes (the client adds REDIS_KEY_PREFIX in front). */
export const redisKeys = {
  ipWindow: (ip: string) => `gw:rl:ip:${ip}`,
  authFailures: (ip: string) => `gw:bf:${ip}`,
  /** The key's requests of the last hour; its minute window is the newest part (the name is the hour log's of old). */
  keyLog: (keyId: string) => `gw:rl:kh:${keyId}`,
  revoked: (keyId: string) => `gw:revoked:${keyId}`,
};

/** Revocation markers outlive any cached key row by far (the cache keeps a row for at most a minute). */
export const REVOCATION_MARKER_TTL_S = 3600;
