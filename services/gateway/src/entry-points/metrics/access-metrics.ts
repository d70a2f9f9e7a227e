import { counterOf, METRICS, type Registry } from '@mailer/shared';
import type { LimitDecision } from '../../domain/rate-limit';

/** Why the gateway refused a caller's credentials (metrics label). */
export type AuthFailureLabel = 'missing' | 'malformed' | 'unknown' | 'wrong_secret' | 'revoked' | 'expired' | 'plan' | 'signin';

/** What the access guard and the sign-in form count. */
export interface AccessMetrics {
  /** One limiter decision: allowed/limited per window, fallback use, blocks. */
  decided(decision: LimitDecision): void;
  authFailed(reason: AuthFailureLabel): void;
}

/** The gateway's access counters on `registry`; every call is a label lookup and an increment. */
export function accessMetrics(registry: Registry): AccessMetrics {
  const decisions = counterOf(registry, METRICS.rateLimitDecisions);
  const fallback = counterOf(registry, METRICS.rateLimitFallback);
  const authFailures = counterOf(registry, METRICS.authFailures);
  const ipBlocks = counterOf(registry, METRICS.ipBlocks);
  const blocked = counterOf(registry, METRICS.blockedRequests);
  return {
    decided(decision) {
      if (decision.degraded) fallback.inc();
      if (decision.blockStarted) ipBlocks.inc();
      if (decision.outcome === 'blocked') blocked.inc();
      else if (decision.outcome === 'allowed' || decision.outcome === 'limited') {
        decisions.inc({ decision: decision.outcome, limit: decision.windowName });
      }
      // `revoked` is an authentication failure, counted by the guard with its reason.
    },
    authFailed: (reason) => authFailures.inc({ reason }),
  };
}
