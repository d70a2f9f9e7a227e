import type { Logger } from 'pino';
import type { Pool } from '@mailer/shared';
import { touchLastUsed } from './api-keys.repository';

const INTERVAL_MS = 60_000;

/** Records a key's last use off the hot path, at most once a minute per key and process. */
export class LastUsedRecorder {
  private readonly written = new Map<number, number>();

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
  ) {}

  used(keyRowId: number): void {
    const now = Date.now();
    if (now - (this.written.get(keyRowId) ?? 0) < INTERVAL_MS) return;
    if (this.written.size > 50_000) this.written.clear();
    this.written.set(keyRowId, now);
    touchLastUsed(this.pool, keyRowId).catch((error: unknown) =>
      this.logger.warn({ err: error, keyRowId }, 'could not record last use of an API key'),
    );
  }
}
