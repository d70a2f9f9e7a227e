/** What a request is charged to: an authenticated key (key + IP windows), or the IP alone. */
export type LimitMode = 'key' | 'fail' | 'anon';

export interface LimitRequest {
  ip: string;
  /** `key`: a valid key (charged to key and IP); `fail`: an invalid authentication; `anon`: a public route. */
  mode: LimitMode;
  keyId?: string;
}

export interface LimitSettings {
  keyPerMin: number;
  keyPerHour: number;
  ipPerMin: number;
  authFailLimit: number;
  authFailWindowMs: number;
}

/** The window the `X-RateLimit-*` headers describe. `resetAt` is Unix seconds. */
export interface WindowState {
  limit: number;
  remaining: number;
  resetAt: number;
}

export type LimitOutcome = 'allowed' | 'limited' | 'blocked' | 'revoked';

/** The window a decision describes (metrics label); `auth_fail` for a brute-force block. */
export type LimitWindowName = 'ip_minute' | 'key_minute' | 'key_hour' | 'auth_fail';

export interface LimitDecision {
  /** `limited`: a window is full (429, Retry-After 60); `blocked`: brute-force block (429, Retry-After = seconds left);
   *  `revoked`: the key was revoked since it was cached (401, counted as a failed authentication). */
  outcome: LimitOutcome;
  window: WindowState;
  windowName: LimitWindowName;
  /** True when this request's failed authentication pushed its IP over the limit (the block starts now). */
  blockStarted: boolean;
  /** Seconds until a brute-force block ends. */
  retryAfter?: number;
  /** True when Redis was unusable and the per-process limiter decided. */
  degraded: boolean;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export interface WindowSpec {
  name: 'ip' | 'key-minute' | 'key-hour';
  metricName: LimitWindowName;
  limit: number;
  windowMs: number;
}

export function windowsFor(request: LimitRequest, settings: LimitSettings): WindowSpec[] {
  const ip: WindowSpec = { name: 'ip', metricName: 'ip_minute', limit: settings.ipPerMin, windowMs: MINUTE_MS };
  if (request.mode !== 'key') return [ip];
  return [
    ip,
    { name: 'key-minute', metricName: 'key_minute', limit: settings.keyPerMin, windowMs: MINUTE_MS },
    { name: 'key-hour', metricName: 'key_hour', limit: settings.keyPerHour, windowMs: HOUR_MS },
  ];
}

export const toSeconds = (ms: number) => Math.ceil(ms / 1000);
