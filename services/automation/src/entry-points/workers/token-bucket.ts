/**
 * A per-account send rate: `ratePerSecond` tokens a second, at most a tenth of a second's worth
 * (or one) banked, so a paused-then-resumed account never bursts above its rate.
 */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(private ratePerSecond: number) {
    this.tokens = this.capacity;
  }

  private get capacity(): number {
    return Math.max(1, this.ratePerSecond / 10);
  }

  setRate(ratePerSecond: number): void {
    this.ratePerSecond = ratePerSecond;
  }

  /** Whole tokens available now. */
  available(): number {
    const now = performance.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    return Math.floor(this.tokens);
  }

  take(count: number): void {
    this.tokens -= count;
  }

  /** Milliseconds until the next whole token. */
  msUntilNext(): number {
    return Math.max(1, Math.ceil(((1 - (this.tokens % 1)) / this.ratePerSecond) * 1000));
  }
}
