import type { PoolClient } from '@mailer/shared';

/**
 * Claims a message id in the inbox; false when it was already applied. Run it in the transaction of
 * the effect: a concurrent duplicate waits on the primary key and then finds the id taken.
 */
export async function claimMessage(db: PoolClient, messageId: string): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'automation.claim-message',
    text: 'INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING',
    values: [messageId],
  });
  return rowCount === 1;
}
