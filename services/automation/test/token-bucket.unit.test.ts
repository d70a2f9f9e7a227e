import { TokenBucket } from '../src/token-bucket';

describe('TokenBucket', () => {
  it('hands out its tenth of a second at once, then tokens at its rate, to waiters in the order they came', async () => {
    const bucket = new TokenBucket(100);
    const started = performance.now();
    const order: number[] = [];
    const at: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        bucket.acquire().then(() => {
          order.push(index);
          at.push(performance.now() - started);
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 30 }, (_, index) => index));
    // Ten banked, twenty more at a hundred a second.
    expect(at.filter((ms) => ms < 25)).toHaveLength(10);
    expect(at[29]).toBeGreaterThanOrEqual(195);
  });

  it('answers how many rows may be claimed now, and how long until the next', () => {
    const bucket = new TokenBucket(50);
    expect(bucket.available()).toBe(5);
    bucket.take(5);
    expect(bucket.available()).toBe(0);
    expect(bucket.msUntilNext()).toBeGreaterThan(0);
    expect(bucket.msUntilNext()).toBeLessThanOrEqual(20);
  });
});
