import type { PoolClient } from '@mailer/shared';

/** Records a message as applied; false when it was applied before (a redelivery). */
export async function markProcessed(client: PoolClient, messageId: string): Promise<boolean> {
  const { rowCount } = await client.query({
    name: 'automation.mark-processed',
    text: 'INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING',
    values: [messageId],
  });
  return rowCount === 1;
}
