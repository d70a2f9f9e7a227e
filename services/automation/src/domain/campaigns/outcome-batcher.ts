import type { Logger } from 'pino';
import { recordCampaignOutcomes, type BatchedOutcome } from '../../data-access/campaign-sends.repository';

const MAX_BATCH = 100;
const MAX_WAIT_MS = 5;

interface Waiting {
  outcome: BatchedOutcome;
  resolve: (recorded: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Records plain campaign outcomes (no fact to publish, no bounce) many to a statement: at a
 * thousand emails a second one UPDATE each would cost Postgres more than the sending. A batch
 * waits at most MAX_WAIT_MS, which is all it adds to the documented window between the SMTP
 * server's acceptance and our commit. Each outcome stays fenced by its own attempt number.
 */
export class OutcomeBatcher {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (outcomes: BatchedOutcome[]) => Promise<Set<number>>,
    private readonly logger: Logger,
  ) {}

  static forPool(pool: Parameters<typeof recordCampaignOutcomes>[0], logger: Logger): OutcomeBatcher {
    return new OutcomeBatcher((outcomes) => recordCampaignOutcomes(pool, outcomes), logger);
  }

  /** Resolves once written: true when this attempt still held the claim. */
  record(outcome: BatchedOutcome): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ outcome, resolve, reject });
      if (this.waiting.length >= MAX_BATCH) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), MAX_WAIT_MS);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.write(batch.map((entry) => entry.outcome)).then(
      (recorded) => {
        for (const entry of batch) entry.resolve(recorded.has(entry.outcome.id));
      },
      (error: unknown) => {
        this.logger.warn({ err: error, outcomes: batch.length }, 'campaign outcomes not recorded; each is retried');
        for (const entry of batch) entry.reject(error);
      },
    );
  }
}
