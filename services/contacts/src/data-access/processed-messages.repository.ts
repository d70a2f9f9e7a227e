import type { Queryable } from './queryable';

/**
 * Records a message as processed; false when it already was. Run inside the transaction of the
 * effect: a concurrent duplicate waits on this row and then sees it, so the effect happens once.
 */
export async function claimMessage(db: Queryable, key: string): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'contacts.claim-message',
    text: 'INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING',
    values: [key],
  });
  return rowCount === 1;
}
