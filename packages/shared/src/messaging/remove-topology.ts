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
    // A quorum queue's deletion waits for its Raft group to stop: one channel each, so they stop
    // side by side (one after the other took over 30 s for a namespace on a busy broker).
    const queues = Object.values(QUEUES).flatMap((queue) => [namespace + queue.name, deadLetterQueueName(namespace + queue.name)]);
    await Promise.all(
      queues.map(async (queue) => {
        const channel = await connection.createChannel();
        await channel.deleteQueue(queue);
        await channel.close();
      }),
    );
    const channel = await connection.createChannel();
    await channel.deleteExchange(namespace + EXCHANGE);
    await channel.deleteExchange(namespace + DEAD_LETTER_EXCHANGE);
    await channel.close();
  } finally {
    await connection.close();
  }
}
