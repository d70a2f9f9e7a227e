import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { EXCHANGE } from '@mailer/shared';
import { testServers } from './test-environment';

/**
 * Whether the facts exchange of namespace `ns` routes `routingKey` to any queue, asked of this
 * run's RabbitMQ directly (not through a service's connection, which a test may have cut):
 * published `mandatory`, a message no queue takes comes back before its confirm. A routed probe is
 * `{}` with no type, which its consumer dead-letters: use keys whose queue a test owns.
 */
export async function brokerRoutes(ns: string, routingKey: string): Promise<boolean> {
  const connection = await amqp.connect(testServers().amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    let returned = false;
    channel.on('return', () => {
      returned = true;
    });
    channel.publish(ns + EXCHANGE, routingKey, Buffer.from('{}'), { mandatory: true, messageId: randomUUID() });
    await channel.waitForConfirms();
    return !returned;
  } finally {
    await connection.close();
  }
}
