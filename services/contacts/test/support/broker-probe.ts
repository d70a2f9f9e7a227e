import amqp, { type ConfirmChannel } from 'amqplib';
import { EXCHANGE, deadLetterQueueName } from '@mailer/shared';
import { testServers } from '@mailer/testing';

export interface SeenMessage {
  type: string;
  messageId: string;
  routingKey: string;
  payload: Record<string, unknown>;
}

/** An enriched event the probe saw, and the message that carried it. */
export interface SeenEnrichedEvent {
  /** The carrying message's id: `enriched:<event id>` when alone, the batch's own when not. */
  messageId: string;
  batched: boolean;
  payload: Record<string, unknown>;
}

/**
 * A direct client of this run's RabbitMQ: binds a private queue to the service's exchange to see
 * what it publishes, publishes raw messages (poison included) and reads dead-letter queues.
 */
export async function brokerProbe(namespace: string, routingKeys: string[]) {
  const connection = await amqp.connect(testServers().amqpUrl);
  const channel: ConfirmChannel = await connection.createConfirmChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  for (const key of routingKeys) await channel.bindQueue(queue, namespace + EXCHANGE, key);
  const seen: SeenMessage[] = [];
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      seen.push({
        // The type, not the routing key: enriched events are routed by account and event name.
        type: String(message.properties.type ?? message.fields.routingKey),
        messageId: String(message.properties.messageId),
        routingKey: message.fields.routingKey,
        payload: JSON.parse(message.content.toString('utf8')) as Record<string, unknown>,
      });
    },
    { noAck: true },
  );
  return {
    seen,
    /** Every enriched event seen, alone (`product_event.enriched.v1`) or in a batch of its trigger. */
    enrichedEvents: (): SeenEnrichedEvent[] =>
      seen.flatMap((message): SeenEnrichedEvent[] => {
        if (message.type === 'product_event.enriched.v1') return [{ messageId: message.messageId, batched: false, payload: message.payload }];
        if (message.type !== 'product_events.enriched.v1') return [];
        const events = message.payload.events as Array<Record<string, unknown>>;
        return events.map((payload) => ({ messageId: message.messageId, batched: true, payload }));
      }),
    /** Publishes as a producer service would: type, message id, persistent, confirmed. */
    async publish(type: string, payload: unknown, messageId: string) {
      const body = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
      channel.publish(namespace + EXCHANGE, type, body, {
        persistent: true,
        type,
        messageId,
        contentType: 'application/json',
      });
      await channel.waitForConfirms();
    },
    /** Takes one message from the dead-letter queue of `queue`, if any. */
    async takeDeadLetter(queueName: string) {
      const message = await channel.get(deadLetterQueueName(namespace + queueName), { noAck: true });
      return message
        ? { messageId: String(message.properties.messageId), body: message.content.toString('utf8') }
        : undefined;
    },
    close: async () => {
      await connection.close();
    },
  };
}
