const DAY_MS = 86_400_000;

export type KeyStatus = 'active' | 'expired' | 'revoked';

/** A key with expiry date D (YYYY-MM-DD) works through the end of D in UTC. */
export function isExpired(expiresOn: string | null, now: number = Date.now()): boolean {
  if (expiresOn === null) return false;
  return now >= Date.parse(`${expiresOn}T00:00:00Z`) + DAY_MS;
}

export function keyStatus(key: { expiresOn: string | null; revokedAt: Date | null }, now: number = Date.now()): KeyStatus {
  if (key.revokedAt) return 'revoked';
  return isExpired(key.expiresOn, now) ? 'expired' : 'active';
}

/** Today's date in UTC as YYYY-MM-DD (the form expiry dates take). */
export const utcDate = (at: number = Date.now()) => new Date(at).toISOString().slice(0, 10);
