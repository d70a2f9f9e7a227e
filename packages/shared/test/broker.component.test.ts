import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { z } from 'zod';
import {
  Broker,
  BrokerUnavailableError,
  EXCHANGE,
  PoisonMessageError,
  QUEUES,
  RETIRED_QUEUES,
  deadLetterQueueName,
  defineContract,
  emailSentV1,
  type ConsumeOutcome,
} from '@mailer/shared';
import { rememberNamespace, removeNamespace, testServers, waitFor } from '@mailer/testing';
import { memoryLogger, sentFact, uniqueName } from './helpers';

describe('Broker', () => {
  const { amqpUrl } = testServers();
  const { logger } = memoryLogger();
  let namespace: string;
  let broker: Broker;
  const queue = QUEUES.webhooksFacts.name;

  beforeEach(async () => {
    namespace = uniqueName('t') + '.';
    broker = Broker.start({ url: amqpUrl, logger, connectionName: 'test', namespace });
    await broker.ready();
    // No static binding: the webhooks service binds this queue while an endpoint subscribes.
    await broker.setQueueBindings(queue, { bind: [emailSentV1.type], unbind: [] });
  });
  // Each test's quorum queues go with it: twenty a namespace, a broker at 1,024 files holds few hundred.
  afterEach(async () => {
    await broker.close();
    await removeNamespace(amqpUrl, namespace);
  });

  async function messagesIn(name: string): Promise<number> {
    const connection = await amqp.connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      return (await channel.checkQueue(name)).messageCount;
    } finally {
      await connection.close();
    }
  }

  async function deadLettered(): Promise<unknown[]> {
    const connection = await amqp.connect(amqpUrl);
    const channel = await connection.createChannel();
    const bodies: unknown[] = [];
    for (;;) {
      const message = await channel.get(`${namespace}${queue}.dlq`, { noAck: true });
      if (!message) break;
      bodies.push(JSON.parse(message.content.toString()));
    }
    await connection.close();
    return bodies;
  }

  it('deletes a retired queue a broker still holds, with its dead letters, when it declares the topology', async () => {
    const retiredNamespace = rememberNamespace(uniqueName('t') + '.');
    const connection = await amqp.connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      const names = RETIRED_QUEUES.flatMap((queue) => [retiredNamespace + queue, deadLetterQueueName(retiredNamespace + queue)]);
      for (const name of names) {
        await channel.assertQueue(name, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
        await channel.sendToQueue(name, Buffer.from('left over'));
      }
      const upgraded = Broker.start({ url: amqpUrl, logger, connectionName: 'test-upgraded', namespace: retiredNamespace });
      await upgraded.ready();
      await upgraded.close();
      for (const name of names) {
        // checkQueue on a missing queue closes the channel with 404: one channel per check.
        const probe = await connection.createChannel();
        probe.on('error', () => undefined);
        await expect(probe.checkQueue(name)).rejects.toThrow(/404|NOT_FOUND/);
      }
    } finally {
      await connection.close();
    }
  });

  it('publishes with a broker confirm and a consumer receives and acks it once', async () => {
    const received: string[] = [];
    const outcomes: ConsumeOutcome[] = [];
    broker.consume({
      queue,
      contracts: [emailSentV1],
      handle: async (message) => void received.push(message.payload.step),
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    const messageId = randomUUID();
    await broker.publish(emailSentV1, sentFact('one'), { messageId });
    await waitFor(() => (outcomes.length === 1 ? true : undefined), { what: 'ack' });
    expect(received).toEqual(['one']);
    expect(outcomes).toEqual(['ack']);
  });

  it('sends a message that fails its contract to the dead-letter queue without calling the handler', async () => {
    const handled: string[] = [];
    const outcomes: ConsumeOutcome[] = [];
    broker.consume({
      queue,
      contracts: [emailSentV1],
      handle: async (message) => void handled.push(message.messageId),
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    const connection = await amqp.connect(amqpUrl);
    const channel = await connection.createConfirmChannel();
    channel.publish(namespace + EXCHANGE, emailSentV1.type, Buffer.from(JSON.stringify({ nonsense: true })), {
      messageId: randomUUID(),
      type: emailSentV1.type,
    });
    await channel.waitForConfirms();
    await connection.close();
    await waitFor(() => (outcomes.length === 1 ? true : undefined), { what: 'dead-letter' });
    expect(outcomes).toEqual(['dead-letter']);
    expect(handled).toEqual([]);
    expect(await deadLettered()).toEqual([{ nonsense: true }]);
  });

  it('dead-letters a message whose handler says it is poison', async () => {
    const outcomes: ConsumeOutcome[] = [];
    broker.consume({
      queue,
      contracts: [emailSentV1],
      handle: async () => {
        throw new PoisonMessageError('no such contact');
      },
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    await broker.publish(emailSentV1, sentFact('poison'), { messageId: randomUUID() });
    await waitFor(() => (outcomes.length === 1 ? true : undefined), { what: 'dead-letter' });
    expect(await deadLettered()).toEqual([expect.objectContaining({ step: 'poison' })]);
  });

  it('retries in place while a dependency is down, then acks once', async () => {
    let calls = 0;
    const outcomes: ConsumeOutcome[] = [];
    broker.consume({
      queue,
      contracts: [emailSentV1],
      handle: async () => {
        calls += 1;
        if (calls < 3) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    await broker.publish(emailSentV1, sentFact('retry'), { messageId: randomUUID() });
    await waitFor(() => (outcomes.length === 1 ? true : undefined), { what: 'ack' });
    expect(calls).toBe(3);
    expect(outcomes).toEqual(['ack']);
  });

  it('refuses a publish that no queue would hold', async () => {
    const orphan = defineContract('nobody.listens.v1', z.object({ x: z.number() }));
    await expect(broker.publish(orphan, { x: 1 }, { messageId: randomUUID() })).rejects.toBeInstanceOf(
      BrokerUnavailableError,
    );
  });

  it('binds and unbinds a queue at run time; a fact only such a binding routes is dropped while unbound, not refused', async () => {
    const name = namespace + queue;
    await broker.setQueueBindings(queue, { bind: [], unbind: [emailSentV1.type] });
    await broker.publish(emailSentV1, sentFact('nobody listens'), { messageId: randomUUID() });
    expect(await messagesIn(name)).toBe(0);
    await broker.setQueueBindings(queue, { bind: [emailSentV1.type], unbind: [] });
    await broker.publish(emailSentV1, sentFact('held'), { messageId: randomUUID() });
    expect(await messagesIn(name)).toBe(1);
    // Unbinding what is not bound succeeds.
    await broker.setQueueBindings(queue, { bind: [], unbind: [emailSentV1.type, emailSentV1.type, 'workflow.completed.v1'] });
    await broker.publish(emailSentV1, sentFact('dropped'), { messageId: randomUUID() });
    expect(await messagesIn(name)).toBe(1);
  });

  it('calls a connection listener at once when connected, and rejects a binding while disconnected', async () => {
    let calls = 0;
    broker.onConnected(() => void (calls += 1));
    expect(calls).toBe(1);
    const offline = Broker.start({ url: 'amqp://guest:guest@127.0.0.1:1', logger, connectionName: 'offline' });
    try {
      await expect(offline.setQueueBindings(queue, { bind: [emailSentV1.type], unbind: [] })).rejects.toBeInstanceOf(BrokerUnavailableError);
    } finally {
      await offline.close();
    }
  });

  it('leaves no connection open when closed while it was still connecting', async () => {
    const sockets = () => process.getActiveResourcesInfo().filter((resource) => resource === 'TCPSocketWrap').length;
    const before = sockets();
    const stopped = Broker.start({ url: amqpUrl, logger, connectionName: 'stopped-while-connecting', namespace });
    await stopped.close();
    expect(stopped.isConnected()).toBe(false);
    // A connection that completed after close would still hold its socket here.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sockets()).toBe(before);
  });

  it('refuses a publish at once while the broker is unreachable', async () => {
    const offline = Broker.start({ url: 'amqp://guest:guest@127.0.0.1:1', logger, connectionName: 'offline' });
    try {
      expect(offline.isConnected()).toBe(false);
      await expect(offline.publish(emailSentV1, sentFact('x'), { messageId: randomUUID() })).rejects.toBeInstanceOf(
        BrokerUnavailableError,
      );
    } finally {
      await offline.close();
    }
  });

  describe('a consumer the broker refuses or cancels', () => {
    const lateQueue = 'late-queue';
    let admin: amqp.ChannelModel;
    beforeEach(async () => {
      admin = await amqp.connect(amqpUrl);
    });
    afterEach(async () => {
      const channel = await admin.createChannel();
      await channel.deleteQueue(namespace + lateQueue);
      await admin.close();
    });

    /** Puts one email.sent fact straight into the queue, as the exchange would have. */
    async function sendToLateQueue(step: string): Promise<void> {
      const channel = await admin.createConfirmChannel();
      channel.sendToQueue(namespace + lateQueue, Buffer.from(JSON.stringify(sentFact(step))), { type: emailSentV1.type, messageId: randomUUID() });
      await channel.waitForConfirms();
      await channel.close();
    }

    function consumeLateQueue(): string[] {
      const handled: string[] = [];
      broker.consume({
        queue: lateQueue,
        contracts: [emailSentV1],
        handle: async (message) => {
          handled.push(message.payload.step);
        },
      });
      return handled;
    }

    it('starts again, while connected, a consumer whose queue was not there when it first tried', async () => {
      const handled = consumeLateQueue();
      // The consume was refused (no such queue); the queue appears afterwards.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const channel = await admin.createChannel();
      await channel.assertQueue(namespace + lateQueue, { durable: true });
      await sendToLateQueue('after the refusal');
      await waitFor(() => (handled.includes('after the refusal') ? true : undefined), { timeoutMs: 10_000, what: 'the late consumer' });
    });

    it('starts again a consumer the broker cancelled', async () => {
      const channel = await admin.createChannel();
      await channel.assertQueue(namespace + lateQueue, { durable: true });
      const handled = consumeLateQueue();
      await sendToLateQueue('before');
      await waitFor(() => (handled.includes('before') ? true : undefined), { what: 'the first message' });
      // Deleting the queue cancels its consumers; it comes back empty.
      await channel.deleteQueue(namespace + lateQueue);
      await channel.assertQueue(namespace + lateQueue, { durable: true });
      await sendToLateQueue('after the cancel');
      await waitFor(() => (handled.includes('after the cancel') ? true : undefined), { timeoutMs: 10_000, what: 'the restarted consumer' });
    });
  });
});
