import type { Socket } from 'node:net';
import amqp, { type ChannelModel } from 'amqplib';
import { countSocketWrites, testServers } from '@mailer/testing';
import { coalesceFrameWrites } from '../src/messaging/coalesce-frame-writes';
import { uniqueName } from './helpers';

describe('coalesceFrameWrites', () => {
  const { amqpUrl } = testServers();
  let model: ChannelModel;

  beforeEach(async () => {
    model = await amqp.connect(amqpUrl);
  });
  afterEach(() => model.close());

  const socketWrites = () => countSocketWrites((model as unknown as { connection: { stream: Socket } }).connection.stream);

  it("recognises this amqplib's connection (an upgrade that changes it fails here)", () => {
    expect(coalesceFrameWrites(model)).toBe(true);
  });

  it('sends the frames of one pass as one write, in order, each confirmed and delivered once', async () => {
    coalesceFrameWrites(model);
    const channel = await model.createConfirmChannel();
    const queue = uniqueName('coalesce-');
    await channel.assertQueue(queue, { exclusive: true });
    const writes = socketWrites();

    const bodies = Array.from({ length: 30 }, (_, index) => `message ${index}`);
    await Promise.all(
      bodies.map(
        (body) =>
          new Promise<void>((resolve, reject) =>
            channel.sendToQueue(queue, Buffer.from(body), {}, (error: unknown) => (error ? reject(new Error('nacked')) : resolve())),
          ),
      ),
    );

    // Thirty publishes written in one or two writes, not thirty.
    expect(writes.reduce((sum, chunks) => sum + chunks, 0)).toBe(30);
    expect(writes.length).toBeLessThanOrEqual(2);
    const received: string[] = [];
    for (let message = await channel.get(queue, { noAck: true }); message; message = await channel.get(queue, { noAck: true })) {
      received.push(message.content.toString());
    }
    expect(received).toEqual(bodies);
  });
});
