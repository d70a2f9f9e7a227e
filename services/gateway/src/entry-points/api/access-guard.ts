import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { sendJson } from '@mailer/shared';
import type { Logger } from 'pino';
import type { AuthVerdict, KeyAuthenticator } from '../../domain/key-authenticator';
import { limitAddress } from '../../domain/limit-address';
import type { LimitDecision, LimitMode } from '../../domain/rate-limit';
import type { ResilientLimiter } from '../../data-access/resilient-limiter';
import type { AccessMetrics } from '../metrics/access-metrics';
import {
  BLOCKED_BODY,
  FORBIDDEN_BODY,
  RATE_LIMITED_BODY,
  setRateLimitHeaders,
  UNAUTHORIZED_BODY,
} from './rate-limit-headers';

export interface AccessDeps {
  authenticator: KeyAuthenticator;
  limiter: ResilientLimiter;
  logger: Logger;
  /** Called for each request a key makes (throttled by the callee). */
  keyUsed: (keyRowId: number) => void;
  metrics: AccessMetrics;
  /**
   * A refused key is answered no sooner than this many ms after the request arrived, so a 401 takes
   * the same time whether the key id exists (its row in memory) or not (a database look-up).
   */
  authFailureMinMs?: number;
}

const waitUntil = (deadline: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));

/** The authenticated account, for the proxy to sign. */
export const accountOf = (res: Response): number | undefined => res.locals.accountId as number | undefined;

const modeOf = (verdict: AuthVerdict): LimitMode => (verdict.kind === 'invalid' ? 'fail' : 'key');

/** Either the request may go on (with its account when a key was required), or it was answered. */
export type AccessOutcome = { kind: 'pass'; accountId?: number } | { kind: 'answered' };

/**
 * Authentication and limits for one request, in one Redis round trip: the key is checked first
 * (in-process cache, else one indexed query), then the script charges the right windows and
 * reports a brute-force block or a revocation. `requireKey: false` serves public routes, limited by
 * IP. `ip` is the unit limits count (see limitAddress). A refusal is answered here; a key store that
 * is down throws, for the caller's error answer (503), after the IP window's headers are set.
 */
export async function checkAccess(
  deps: AccessDeps,
  req: IncomingMessage,
  res: ServerResponse,
  ip: string,
  options: { requireKey: boolean },
): Promise<AccessOutcome> {
  const arrived = performance.now();
  if (!options.requireKey) {
    const decision = await deps.limiter.check({ ip, mode: 'anon' });
    deps.metrics.decided(decision);
    return refusedByLimits(res, decision) ? { kind: 'answered' } : { kind: 'pass' };
  }
  const authorization = req.headers.authorization;
  let verdict: AuthVerdict;
  try {
    verdict = await deps.authenticator.authenticate(authorization, { bypassCache: !deps.limiter.redisUsable() });
  } catch (error) {
    // The key store is down: still describe the IP window, then let the error answer say 503.
    setRateLimitHeaders(res, (await deps.limiter.check({ ip, mode: 'anon' })).window);
    throw error;
  }
  const decision = await deps.limiter.check({ ip, mode: modeOf(verdict), keyId: verdict.keyId });
  deps.metrics.decided(decision);
  if (decision.degraded && verdict.kind !== 'invalid' && verdict.fromCache) {
    // Redis could not confirm the cached row is still unrevoked: ask the database.
    verdict = await deps.authenticator.authenticate(authorization, { bypassCache: true });
  }
  if (refusedByLimits(res, decision)) return { kind: 'answered' };
  if (decision.outcome === 'revoked' || verdict.kind === 'invalid') {
    // Only a revocation evicts: a wrong secret for a real key id must not push the real key out of the cache.
    if (decision.outcome === 'revoked' && verdict.keyId) deps.authenticator.evict(verdict.keyId);
    deps.metrics.authFailed(verdict.kind === 'invalid' ? verdict.reason : 'revoked');
    deps.logger.debug({ keyId: verdict.keyId, ip }, 'authentication failed');
    await waitUntil(arrived + (deps.authFailureMinMs ?? 0));
    sendJson(res, 401, UNAUTHORIZED_BODY);
    return { kind: 'answered' };
  }
  if (verdict.kind === 'forbidden') {
    deps.metrics.authFailed('plan');
    sendJson(res, 403, FORBIDDEN_BODY);
    return { kind: 'answered' };
  }
  deps.keyUsed(verdict.keyRowId);
  return { kind: 'pass', accountId: verdict.accountId };
}

/** Express's end of `checkAccess`: the account goes to `res.locals` for the proxy. */
export function accessGuard(deps: AccessDeps, options: { requireKey: boolean }): RequestHandler {
  return async (req, res, next) => {
    const outcome = await checkAccess(deps, req, res, limitAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown'), options);
    if (outcome.kind === 'answered') return;
    if (outcome.accountId !== undefined) res.locals.accountId = outcome.accountId;
    next();
  };
}

/** Sets the headers; answers 429 and returns true when the limits refuse the request. */
function refusedByLimits(res: ServerResponse, decision: LimitDecision): boolean {
  setRateLimitHeaders(res, decision.window);
  if (decision.outcome === 'blocked') {
    res.setHeader('Retry-After', String(Math.max(1, decision.retryAfter ?? 1)));
    sendJson(res, 429, BLOCKED_BODY);
    return true;
  }
  if (decision.outcome === 'limited') {
    res.setHeader('Retry-After', '60');
    sendJson(res, 429, RATE_LIMITED_BODY);
    return true;
  }
  return false;
}
