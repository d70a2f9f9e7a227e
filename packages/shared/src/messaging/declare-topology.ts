import type { Channel } from 'amqplib';
import { DEAD_LETTER_EXCHANGE, DELIVERY_LIMIT, EXCHANGE, QUEUES, RETIRED_QUEUES, deadLetterQueueName } from './topology';

/**
 * Declares exchanges, quorum queues with their dead-letter queues, and bindings, and deletes retired
 * queues (deleting one that is not there succeeds). Idempotent: every
 * service runs it on each (re)connection. `namespace` prefixes every name, so tests running side by
 * side in one vhost never consume each other's messages.
 */
export async function declareTopology(channel: Channel, namespace = ''): Promise<void> {
  const exchange = namespace + EXCHANGE;
  const deadLetterExchange = namespace + DEAD_LETTER_EXCHANGE;
  await channel.assertExchange(exchange, 'topic', { durable: true });
  await channel.assertExchange(deadLetterExchange, 'direct', { durable: true });
  for (const queue of Object.values(QUEUES)) {
    const name = namespace + queue.name;
    const deadLetters = deadLetterQueueName(name);
    await channel.assertQueue(deadLetters, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.bindQueue(deadLetters, deadLetterExchange, name);
    await channel.assertQueue(name, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': DELIVERY_LIMIT,
        'x-dead-letter-exchange': deadLetterExchange,
        'x-dead-letter-routing-key': name,
      },
    });
    for (const routingKey of queue.bindings) {
      await channel.bindQueue(name, exchange, routingKey);
    }
  }
  for (const retired of RETIRED_QUEUES) {
    await channel.deleteQueue(namespace + retired);
    await channel.deleteQueue(deadLetterQueueName(namespace + retired));
  }
}
