import amqp from 'amqplib';
import { DEAD_LETTER_EXCHANGE, EXCHANGE, QUEUES, deadLetterQueueName } from './topology';

/**
 * Deletes the exchanges and queues of one namespace (benchmarks, throw-away runs). Refuses the
 * empty namespace, which is production's.
 */
export async function removeNamespacedTopology(url: string, namespace: string): Promise<void> {
  if (!namespace) throw new Error('refusing to remove the un-namespaced (production) topology');
  const connection = await amqp.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of Object.values(QUEUES)) {
      await channel.deleteQueue(namespace + queue.name);
      await channel.deleteQueue(deadLetterQueueName(namespace + queue.name));
    }
    await channel.deleteExchange(namespace + EXCHANGE);
    await channel.deleteExchange(namespace + DEAD_LETTER_EXCHANGE);
    await channel.close();
  } finally {
    await connection.close();
  }
}
