import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import express from 'express';
import { z } from 'zod';
import {
  Broker,
  EXCHANGE,
  PoisonMessageError,
  QUEUES,
  createMetricsRegistry,
  defineContract,
  emailSentV1,
  listen,
  metricsRoutes,
  type ConsumeOutcome,
  type Registry,
  type RunningServer,
} from '@mailer/shared';
import { metricValue, scrapeMetrics, testServers, waitFor, removeNamespace } from '@mailer/testing';
import { memoryLogger, sentFact, uniqueName } from './helpers';

describe('Broker metrics', () => {
  const { amqpUrl } = testServers();
  const { logger } = memoryLogger();
  const queue = QUEUES.webhooksFacts.name;
  let namespace: string;
  let registry: Registry;
  let broker: Broker;
  let server: RunningServer;

  beforeEach(async () => {
    namespace = uniqueName('m') + '.';
    registry = createMetricsRegistry('campaigns', { processMetrics: false });
    broker = Broker.start({
      url: amqpUrl,
      logger,
      connectionName: 'metrics-test',
      namespace,
      metrics: registry,
    });
    await broker.ready();
    // No static binding: the webhooks service binds this queue while an endpoint subscribes.
    await broker.setQueueBindings(queue, { bind: [emailSentV1.type], unbind: [] });
    server = await listen(express().use(metricsRoutes(registry)), 0, '127.0.0.1');
  });
  afterEach(async () => {
    await broker.close();
    await server.close();
    await removeNamespace(amqpUrl, namespace);
  });

  async function publishRaw(body: unknown): Promise<void> {
    const connection = await amqp.connect(amqpUrl);
    const channel = await connection.createConfirmChannel();
    channel.publish(namespace + EXCHANGE, emailSentV1.type, Buffer.from(JSON.stringify(body)), {
      messageId: randomUUID(),
      type: emailSentV1.type,
    });
    await channel.waitForConfirms();
    await connection.close();
  }

  it('counts ack, requeue and dead-letter per queue (without the namespace) while onOutcome still sees each', async () => {
    const outcomes: ConsumeOutcome[] = [];
    let failedOnce = false;
    broker.consume({
      queue,
      contracts: [emailSentV1],
      handle: async (message) => {
        if (message.payload.step === 'poison') throw new PoisonMessageError('no such contact');
        if (message.payload.step === 'flaky' && !failedOnce) {
          failedOnce = true;
          throw new Error('a bug that goes away');
        }
      },
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    await broker.publish(emailSentV1, sentFact('ok-1'), { messageId: randomUUID() });
    await broker.publish(emailSentV1, sentFact('ok-2'), { messageId: randomUUID() });
    await broker.publish(emailSentV1, sentFact('poison'), { messageId: randomUUID() });
    await broker.publish(emailSentV1, sentFact('flaky'), { messageId: randomUUID() });
    await publishRaw({ nonsense: true });
    await waitFor(() => (outcomes.length === 6 ? true : undefined), { what: 'six settlements' });

    const text = await scrapeMetrics(server.url);
    const count = (outcome: string) => metricValue(text, 'mailer_queue_messages_total', { queue, outcome });
    expect(count('ack')).toBe(3);
    expect(count('dead-letter')).toBe(2);
    expect(count('requeue')).toBe(1);
    expect([...outcomes].sort()).toEqual(['ack', 'ack', 'ack', 'dead-letter', 'dead-letter', 'requeue']);
    expect(metricValue(text, 'mailer_queue_handler_duration_seconds_count', { queue, outcome: 'ack' })).toBe(
      3,
    );
    expect(text).not.toContain(namespace);
    expect(
      metricValue(text, 'mailer_messages_published_total', { type: emailSentV1.type, outcome: 'confirmed' }),
    ).toBe(4);
    expect(
      metricValue(text, 'mailer_queue_messages_total', { service: 'campaigns', queue, outcome: 'ack' }),
    ).toBe(3);
  });

  it('counts a publish the broker would not take as failed', async () => {
    const orphan = defineContract('nobody.listens.v1', z.object({ x: z.number() }));
    await expect(broker.publish(orphan, { x: 1 }, { messageId: randomUUID() })).rejects.toThrow();
    const text = await scrapeMetrics(server.url);
    expect(
      metricValue(text, 'mailer_messages_published_total', { type: orphan.type, outcome: 'failed' }),
    ).toBe(1);
  });

  it('counts nothing when no registry is given (metrics are opt-in)', async () => {
    const plain = Broker.start({ url: amqpUrl, logger, connectionName: 'no-metrics', namespace });
    const outcomes: ConsumeOutcome[] = [];
    try {
      await plain.ready();
      plain.consume({
        queue,
        contracts: [emailSentV1],
        handle: async () => undefined,
        onOutcome: (o) => outcomes.push(o),
      });
      await plain.publish(emailSentV1, sentFact('plain'), { messageId: randomUUID() });
      await waitFor(() => (outcomes.length === 1 ? true : undefined), { what: 'ack' });
    } finally {
      await plain.close();
    }
    const text = await scrapeMetrics(server.url);
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'ack' })).toBeUndefined();
  });
});
