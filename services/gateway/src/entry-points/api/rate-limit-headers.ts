import type { ServerResponse } from 'node:http';
import type { WindowState } from '../../domain/rate-limit';

export function setRateLimitHeaders(res: ServerResponse, window: WindowState): void {
  res.setHeader('X-RateLimit-Limit', String(window.limit));
  res.setHeader('X-RateLimit-Remaining', String(window.remaining));
  res.setHeader('X-RateLimit-Reset', String(window.resetAt));
}

/** Every 401 has this body, whatever the reason, so a caller learns nothing about which part failed. */
export const UNAUTHORIZED_BODY = { error: 'invalid or missing API key' } as const;
export const FORBIDDEN_BODY = { error: 'your plan does not include API access' } as const;
export const RATE_LIMITED_BODY = { error: 'rate limit exceeded' } as const;
export const BLOCKED_BODY = { error: 'too many failed authentication attempts from this address; try again later' } as const;
