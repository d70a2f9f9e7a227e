/**
 * The shortest wait of `acquire`'s timer: half the tenth of a second the bucket banks, so a late
 * timer loses no token, and a queue of senders costs at most 20 wake-ups a second; the tokens banked
 * meanwhile go out together. A timer per token cost 49 µs of CPU per message at a thousand a second.
 */
const SERVE_EVERY_MS = 50;

/**
 * A send rate: `ratePerSecond` tokens a second, at most a tenth of a second's worth (or one) banked,
 * so a sender idle a while never bursts above its rate. The one limiter of the send path, in two
 * configurations: the SMTP pool waits for a token per message (`SEND_RATE_PER_SECOND`, per
 * instance), and the campaign sender claims as many rows as an account has tokens (the account's
 * rate, per instance).
 */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  /** Callers of `acquire` waiting for a token, first come first served. */
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

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

  /**
   * Takes one token, waiting for it if none is left. Waiters are served in order by one timer, so a
   * queue of senders costs one wake-up per `SERVE_EVERY_MS` at most, not one per sender.
   */
  acquire(): Promise<void> {
    if (this.waiting.length === 0 && this.available() >= 1) {
      this.take(1);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.serveLater();
    });
  }

  private serveLater(): void {
    this.timer ??= setTimeout(
      () => {
        this.timer = undefined;
        this.serve();
      },
      Math.max(SERVE_EVERY_MS, this.msUntilNext()),
    );
  }

  private serve(): void {
    for (let tokens = this.available(); tokens >= 1 && this.waiting.length > 0; tokens -= 1) {
      this.take(1);
      this.waiting.shift()?.();
    }
    if (this.waiting.length > 0) this.serveLater();
  }
}
