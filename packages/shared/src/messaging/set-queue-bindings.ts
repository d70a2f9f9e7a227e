import type { ChannelModel } from 'amqplib';
import type { Logger } from 'pino';
import { BrokerUnavailableError } from './poison-message-error';

/**
 * Binds `target.queue` to `target.exchange` with each of `keys.bind` and unbinds it from each of
 * `keys.unbind` (names as given: the caller applies the namespace). Resolves once the broker has
 * answered every call; rejects with BrokerUnavailableError after `timeoutMs`.
 */
export async function setQueueBindings(
  connection: ChannelModel,
  target: { queue: string; exchange: string },
  keys: { bind: readonly string[]; unbind: readonly string[] },
  options: { timeoutMs: number; logger: Logger },
): Promise<void> {
  const rebind = async () => {
    // A channel of its own: a refused call closes its channel, which must not be the publishers'.
    const channel = await connection.createChannel();
    channel.on('error', (error: Error) => options.logger.warn({ err: error, queue: target.queue }, 'binding channel error'));
    try {
      await Promise.all([
        ...keys.bind.map((key) => channel.bindQueue(target.queue, target.exchange, key)),
        ...keys.unbind.map((key) => channel.unbindQueue(target.queue, target.exchange, key)),
      ]);
    } finally {
      await channel.close().catch(() => undefined);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new BrokerUnavailableError(`binding ${target.queue} took longer than ${options.timeoutMs} ms`)), options.timeoutMs);
  });
  await Promise.race([rebind(), deadline]).finally(() => clearTimeout(timer));
}
