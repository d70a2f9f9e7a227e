import type { ArrivalSink } from './arrival-sink';

/**
 * Arrival time of each email in the sink whose recipient `wanted` accepts, read incrementally
 * (the sink only appends), so polling stays cheap with tens of thousands of messages.
 */
export class SinkArrivals {
  readonly receivedAt = new Map<string, number>();
  private scanned: number;

  constructor(
    private readonly sink: ArrivalSink,
    private readonly wanted: (recipient: string) => boolean,
  ) {
    this.scanned = sink.messages.length;
  }

  update(): number {
    const { messages } = this.sink;
    for (; this.scanned < messages.length; this.scanned++) {
      const message = messages[this.scanned]!;
      for (const recipient of message.to) {
        if (this.wanted(recipient) && !this.receivedAt.has(recipient))
          this.receivedAt.set(recipient, message.receivedAt);
      }
    }
    return this.receivedAt.size;
  }

  /** Polls until `count` wanted emails arrived or `timeoutMs` passed; resolves to how many did. */
  async waitFor(count: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.update() < count && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return this.receivedAt.size;
  }
}

/** Drops the sink's stored messages between scenarios (tens of thousands of arrivals per scenario). */
export function forgetSinkMessages(sink: ArrivalSink): void {
  sink.messages.length = 0;
}
