import { MemoryLimiter } from '../src/domain/memory-limiter';

const settings = { keyPerMin: 3, keyPerHour: 5, ipPerMin: 10, authFailLimit: 2, authFailWindowMs: 1000 };

describe('per-process fallback limiter', () => {
  let limiter: MemoryLimiter;
  beforeEach(() => (limiter = new MemoryLimiter(settings)));
  afterEach(() => limiter.stop());

  it('slides the key window: a slot frees when its request is a minute old, not at a fixed boundary', () => {
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.check({ ip: 'a', mode: 'key', keyId: 'k' }, t0 + i).outcome).toBe('allowed');
    expect(limiter.check({ ip: 'a', mode: 'key', keyId: 'k' }, t0 + 59_999).outcome).toBe('limited');
    const freed = limiter.check({ ip: 'a', mode: 'key', keyId: 'k' }, t0 + 60_000);
    expect(freed.outcome).toBe('allowed');
    expect(freed.window).toEqual({ limit: 3, remaining: 0, resetAt: Math.ceil((t0 + 1 + 60_000) / 1000) });
  });

  it('enforces the hourly window and describes the window nearest exhaustion', () => {
    const t0 = 5_000_000;
    const decisions = [0, 1, 2, 70_000, 70_001].map((offset) => limiter.check({ ip: 'b', mode: 'key', keyId: 'h' }, t0 + offset));
    expect(decisions.map((d) => d.outcome)).toEqual(Array(5).fill('allowed'));
    expect(decisions[4]!.window).toMatchObject({ limit: 5, remaining: 0 });
    expect(limiter.check({ ip: 'b', mode: 'key', keyId: 'h' }, t0 + 140_000).outcome).toBe('limited');
  });

  it('blocks an IP after more than the allowed failures, until the window ends', () => {
    const t0 = 9_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.check({ ip: 'c', mode: 'fail' }, t0 + i).outcome).toBe('allowed');
    const blocked = limiter.check({ ip: 'c', mode: 'key', keyId: 'x' }, t0 + 500);
    expect(blocked).toMatchObject({ outcome: 'blocked', retryAfter: 1 });
    expect(limiter.check({ ip: 'd', mode: 'key', keyId: 'x' }, t0 + 500).outcome).toBe('allowed');
    expect(limiter.check({ ip: 'c', mode: 'key', keyId: 'x' }, t0 + 1001).outcome).toBe('allowed');
  });
});
