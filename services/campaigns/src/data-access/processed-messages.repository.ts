import type { Queryable } from './queryable';

/**
 * Claims a message id in the inbox; false when it was already applied. Run it in the transaction of
 * the effect: a concurrent duplicate waits on the primary key and then finds the id taken.
 */
export async function claimMessage(db: Queryable, messageId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING',
    [messageId],
  );
  return rowCount === 1;
}
