import type { Redis } from '@mailer/shared';

/**
 * Failed sign-ins counted per IP and per email address (fixed window from the first failure), so
 * neither one address guessing many passwords nor many addresses guessing one account get far.
 * Redis shares the count between instances; while it is unreachable, this process counts alone.
 */
export class SignInThrottle {
  private readonly local = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Seconds until sign-in is allowed again, or 0 when it is allowed now. */
  async retryAfter(ip: string, email: string): Promise<number> {
    const names = this.names(ip, email);
    try {
      const counts = await this.redis.mget(...names);
      const over = names.filter((_, i) => Number(counts[i] ?? 0) >= this.limit);
      if (over.length === 0) return 0;
      const ttls = await Promise.all(over.map((name) => this.redis.ttl(name)));
      return Math.max(1, ...ttls);
    } catch {
      const now = Date.now();
      const waits = names.map((name) => this.local.get(name)).filter((entry) => entry && entry.until > now && entry.count >= this.limit);
      return waits.length === 0 ? 0 : Math.ceil((Math.max(...waits.map((entry) => entry!.until)) - now) / 1000);
    }
  }

  async failed(ip: string, email: string): Promise<void> {
    const names = this.names(ip, email);
    try {
      await names
        .reduce((chain, name) => chain.incr(name).expire(name, this.windowSeconds, 'NX'), this.redis.multi())
        .exec();
    } catch {
      const now = Date.now();
      for (const name of names) {
        const entry = this.local.get(name);
        if (!entry || entry.until <= now) this.local.set(name, { count: 1, until: now + this.windowSeconds * 1000 });
        else entry.count++;
      }
      if (this.local.size > 100_000) this.local.clear();
    }
  }

  private names(ip: string, email: string): string[] {
    return [`gw:signin:ip:${ip}`, `gw:signin:email:${email.trim().toLowerCase()}`];
  }
}
