import type { Logger } from 'pino';
import { WakeableLoop } from '../lifecycle/wakeable-loop';
import type { Pool } from './pool';

/** Rows deleted per statement: short transactions and small locks, however large the backlog. */
const ROWS_PER_STATEMENT = 5000;
/** How often the inbox is looked at once it is pruned. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export interface InboxPrunerOptions {
  pool: Pool;
  /** How long a consumed message's id is remembered; a copy arriving later would be applied again. */
  retentionDays: number;
  logger: Logger;
  everyMs?: number;
}

/**
 * Deletes the inbox rows (`processed_messages`) older than the retention, a batch a statement,
 * until none is left, then every ten minutes. The inbox only has to outlast the copies of a message
 * that can still come: a redelivery after a lost ack or connection, a relay's republish after a
 * crash (seconds to minutes), a dead-lettered message an operator replays (days). Without it the
 * table grows by a row for every message the service ever consumed. Instances may prune side by
 * side: rows another is deleting are skipped, not waited for.
 */
export function inboxPruner(options: InboxPrunerOptions): WakeableLoop {
  const prune = async (): Promise<boolean> => {
    const { rowCount } = await options.pool.query({
      name: 'shared.prune-inbox',
      text: `DELETE FROM processed_messages WHERE message_id IN (
               SELECT message_id FROM processed_messages
                WHERE processed_at < now() - make_interval(days => $1)
                LIMIT $2
                FOR UPDATE SKIP LOCKED)`,
      values: [options.retentionDays, ROWS_PER_STATEMENT],
    });
    const deleted = rowCount ?? 0;
    if (deleted > 0) options.logger.info({ deleted, retentionDays: options.retentionDays }, 'inbox pruned');
    return deleted === ROWS_PER_STATEMENT;
  };
  return new WakeableLoop('inbox-pruner', prune, options.everyMs ?? PRUNE_EVERY_MS, options.logger);
}
