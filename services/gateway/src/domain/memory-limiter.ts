import {
  toSeconds,
  windowsFor,
  type LimitDecision,
  type LimitRequest,
  type LimitSettings,
  type WindowState,
} from './rate-limit';

/**
 * The same sliding-window log as the Redis script, kept in this process: the fallback while Redis
 * is unreachable. Limits then hold per gateway instance rather than across all of them.
 */
export class MemoryLimiter {
  private readonly logs = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly settings: LimitSettings) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  check(request: LimitRequest, now: number = Date.now()): LimitDecision {
    const failures = this.recent(`fail:${request.ip}`, now - this.settings.authFailWindowMs);
    if (failures.length > this.settings.authFailLimit) {
      const endsAt = failures[failures.length - this.settings.authFailLimit - 1]! + this.settings.authFailWindowMs;
      const window = { limit: this.settings.authFailLimit, remaining: 0, resetAt: toSeconds(endsAt) };
      return { outcome: 'blocked', window, windowName: 'auth_fail', retryAfter: toSeconds(endsAt - now), degraded: true, blockStarted: false };
    }
    const specs = windowsFor(request, this.settings);
    const logs = specs.map((spec) =>
      this.recent(spec.name === 'ip' ? `ip:${request.ip}` : `${spec.name}:${request.keyId}`, now - spec.windowMs),
    );
    const full = specs.some((spec, i) => logs[i]!.length >= spec.limit);
    let blockStarted = false;
    if (!full) {
      for (const log of logs) log.push(now);
      if (request.mode === 'fail') {
        failures.push(now);
        blockStarted = failures.length > this.settings.authFailLimit;
      }
    }
    const states: WindowState[] = specs.map((spec, i) => ({
      limit: spec.limit,
      remaining: Math.max(0, spec.limit - logs[i]!.length),
      resetAt: toSeconds((logs[i]![0] ?? now) + spec.windowMs),
    }));
    const window = request.mode === 'fail' ? states[0]! : nearestToExhaustion(states);
    const windowName = specs[states.indexOf(window)]!.metricName;
    return { outcome: full ? 'limited' : 'allowed', window, windowName, degraded: true, blockStarted };
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  /** The log under `name` with entries older than `since` dropped (created when missing). */
  private recent(name: string, since: number): number[] {
    let log = this.logs.get(name);
    if (!log) {
      log = [];
      this.logs.set(name, log);
    }
    let drop = 0;
    while (drop < log.length && log[drop]! <= since) drop++;
    if (drop > 0) log.splice(0, drop);
    return log;
  }

  private sweep(): void {
    const oldest = Date.now() - Math.max(this.settings.authFailWindowMs, 3_600_000);
    for (const [name, log] of this.logs) {
      if (log.length === 0 || log[log.length - 1]! <= oldest) this.logs.delete(name);
    }
  }
}

/** The window with the fewest requests left; on a tie, the one that resets last (the longer wait). */
export function nearestToExhaustion(states: WindowState[]): WindowState {
  return states.reduce((best, state) =>
    state.remaining < best.remaining || (state.remaining === best.remaining && state.resetAt > best.resetAt) ? state : best,
  );
}
