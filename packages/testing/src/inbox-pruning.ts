import { randomUUID } from 'node:crypto';
import type { Pool, WakeableLoop } from '@mailer/shared';
import { waitFor } from './wait-for';

/**
 * A service's inbox pruning as wired: an id consumed `retentionDays` + 1 days ago is deleted once
 * the pruner runs, one consumed now is kept, and the age index the pruner relies on exists.
 * Resolves with what it found; the caller asserts.
 */
export async function inboxPruningOf(pool: Pool, pruner: WakeableLoop, retentionDays: number) {
  const [old, recent] = [`old-${randomUUID()}`, `recent-${randomUUID()}`];
  await pool.query(
    `INSERT INTO processed_messages (message_id, processed_at) VALUES ($1, now() - make_interval(days => $3)), ($2, now())`,
    [old, recent, retentionDays + 1],
  );
  pruner.wake();
  await waitFor(
    async () => ((await pool.query('SELECT 1 FROM processed_messages WHERE message_id = $1', [old])).rowCount === 0 ? true : undefined),
    { what: 'the old inbox id pruned' },
  );
  const kept = (await pool.query('SELECT 1 FROM processed_messages WHERE message_id = $1', [recent])).rowCount === 1;
  const { rows } = await pool.query<{ method: string }>(
    `SELECT am.amname AS method FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
      WHERE i.indrelid = 'processed_messages'::regclass AND c.relname = 'processed_messages_processed_at'`,
  );
  return { recentKept: kept, ageIndex: rows[0]?.method };
}
