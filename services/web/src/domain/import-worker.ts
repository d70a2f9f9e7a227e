import type { Logger } from 'pino';
import type { Pool } from '@mailer/shared';
import type { ContactsClient, ImportOutcome, ImportRow } from '../data-access/contacts.client';
import { claimDueImport, finishImport, pendingLines, recordOutcomes, sweepOldImports, type ImportJob, type StagedLine } from '../data-access/imports.repository';

const readable = (entry: StagedLine): entry is StagedLine & { fields: ImportRow } => !('errors' in entry.fields);

/** Rows per call to contacts: its batch limit. */
const BATCH = 500;
const LEASE_MS = 30_000;

/**
 * Runs started imports: any web instance claims a running import whose lease has passed, sends its
 * pending rows to contacts a batch at a time and records each row's outcome with the counters (the
 * progress the page polls). If this instance stops or contacts fails, the lease runs out and the
 * import continues from its first pending row: a row's outcome is recorded once, and contacts
 * upserts by address, so a batch sent twice creates nothing twice.
 */
export class ImportWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly contacts: ContactsClient,
    private readonly logger: Logger,
    private readonly pollMs = 1000,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** A started import is picked up now rather than at the next poll. */
  wake(): void {
    if (!this.running && !this.stopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      for (let job = await claimDueImport(this.pool, LEASE_MS); job && !this.stopped; job = await claimDueImport(this.pool, LEASE_MS)) {
        await this.run(job);
      }
      await sweepOldImports(this.pool);
    } catch (error) {
      // The lease runs out and the import is claimed again: nothing is lost, so a warning suffices.
      this.logger.warn({ err: error }, 'contact import paused; it continues when its lease ends');
    }
  }

  private async run(job: ImportJob): Promise<void> {
    let batchNumber = 0;
    while (!this.stopped) {
      const lines = await pendingLines(this.pool, job.id, BATCH);
      if (lines.length === 0) {
        await finishImport(this.pool, job.id);
        this.logger.info({ importId: job.id, accountId: job.account_id }, 'contact import finished');
        return;
      }
      batchNumber += 1;
      const caller = { accountId: job.account_id, requestId: `import-${job.id}-${batchNumber}` };
      const sendable = lines.filter(readable);
      const answers = sendable.length > 0 ? await this.contacts.importRows(caller, sendable.map((entry) => entry.fields), false) : [];
      const byLine = new Map<number, ImportOutcome>(sendable.map((entry, index) => [entry.line, answers[index]!]));
      await recordOutcomes(
        this.pool,
        job.id,
        lines.map((entry) => {
          const answer = byLine.get(entry.line);
          if ('errors' in entry.fields) return { line: entry.line, outcome: 'failed' as const, errors: entry.fields.errors };
          if (!answer || answer.outcome === 'valid') return { line: entry.line, outcome: 'failed' as const, errors: ['the contacts service gave no answer for this row'] };
          return answer.outcome === 'failed' ? { line: entry.line, outcome: 'failed' as const, errors: answer.errors } : { line: entry.line, outcome: answer.outcome, errors: null };
        }),
        LEASE_MS,
      );
    }
  }
}
