import { setTimeout as sleep } from 'node:timers/promises';

/** How long one answer is believed: a busy form does not open an SMTP connection per request. */
const REMEMBER_MS = 30_000;
/** A server that accepts the connection and never answers counts as not there after this. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether the SMTP server can take an email now, asked at most every 30 s (one probe at a time;
 * callers meanwhile share it). Used where a page would otherwise promise an email that cannot go.
 */
export class SmtpProbe {
  private known: { canSend: boolean; at: number } | undefined;
  private running: Promise<boolean> | undefined;

  constructor(private readonly probe: () => Promise<boolean>) {}

  async canSend(): Promise<boolean> {
    if (this.known && Date.now() - this.known.at < REMEMBER_MS) return this.known.canSend;
    this.running ??= Promise.race([this.probe(), sleep(PROBE_TIMEOUT_MS).then(() => false)]).then((canSend) => {
      this.known = { canSend, at: Date.now() };
      this.running = undefined;
      return canSend;
    });
    return this.running;
  }
}
