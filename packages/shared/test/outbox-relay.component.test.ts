import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Broker, createPool, emailSentV1, migrateDatabase, OutboxRelay, QUEUES, serviceDatabaseUrl, type Pool } from '@mailer/shared';
import { countingPool, startTcpProxy, testServers, waitFor, rememberNamespace } from '@mailer/testing';
import { memoryLogger, sentFact, uniqueName } from './helpers';

describe('OutboxRelay', () => {
  const servers = testServers();
  const { logger } = memoryLogger();
  let pool: Pool;

  beforeAll(async () => {
    const databaseUrl = serviceDatabaseUrl({ service: uniqueName('outbox_'), postgresUrl: servers.postgresUrl, dbPrefix: servers.dbPrefix });
    await migrateDatabase({ databaseUrl, migrationsDir: path.join(__dirname, 'fixtures/migrations'), logger });
    pool = createPool(databaseUrl, logger);
    await pool.query(`CREATE TABLE outbox (id bigserial PRIMARY KEY, message_id uuid NOT NULL UNIQUE, type text NOT NULL,
                                           payload jsonb NOT NULL, trace_context text)`);
  });
  afterAll(() => pool.end());

  /** A broker whose webhook-facts queue receives email.sent facts (as while an endpoint subscribes), and what reached it. */
  async function brokerWithObserver(url = servers.amqpUrl) {
    const namespace = rememberNamespace(`${uniqueName('t')}.`);
    const broker = Broker.start({ url, logger, connectionName: 'relay-test', namespace });
    const observer = Broker.start({ url: servers.amqpUrl, logger, connectionName: 'relay-observer', namespace });
    await Promise.all([broker.ready(), observer.ready()]);
    await observer.setQueueBindings(QUEUES.webhooksFacts.name, { bind: [emailSentV1.type], unbind: [] });
    const received: Array<{ messageId: string; step: string }> = [];
    observer.consume({
      queue: QUEUES.webhooksFacts.name,
      contracts: [emailSentV1],
      handle: async (message) => {
        received.push({ messageId: message.messageId, step: message.payload.step });
      },
    });
    return { broker, received, close: async () => Promise.all([broker.close(), observer.close()]) };
  }

  const write = async (steps: string[]) => {
    const ids = steps.map(() => randomUUID());
    for (const [index, step] of steps.entries()) {
      await pool.query('INSERT INTO outbox (message_id, type, payload) VALUES ($1, $2, $3)', [ids[index], emailSentV1.type, JSON.stringify(sentFact(step))]);
    }
    return ids;
  };
  const remaining = async () => Number((await pool.query<{ count: string }>('SELECT count(*) FROM outbox')).rows[0]!.count);

  it('publishes the rows in order under their message ids and deletes them, two statements a pass', async () => {
    const { broker, received, close } = await brokerWithObserver();
    const counted = countingPool(pool);
    const relay = new OutboxRelay({ name: 'test-relay', pool: counted.pool, broker, logger, pollMs: 60_000, contracts: [emailSentV1], traceContext: true });
    try {
      const ids = await write(['one', 'two', 'three']);
      relay.start();
      await waitFor(() => (received.length === 3 ? true : undefined), { what: 'three facts' });
      expect(received).toEqual([
        { messageId: ids[0], step: 'one' },
        { messageId: ids[1], step: 'two' },
        { messageId: ids[2], step: 'three' },
      ]);
      // The consumer may see the messages before the relay's DELETE has committed.
      await waitFor(async () => ((await remaining()) === 0 ? true : undefined), { what: 'the rows deleted' });
      // One pass: BEGIN with the locking SELECT, the DELETE with COMMIT (a batch short of full ends the round).
      expect(counted.statements()).toBe(2);
    } finally {
      await relay.stop();
      await close();
    }
  });

  it('refuses a batch size or a kept-hours option that is not a positive integer', async () => {
    const { broker, close } = await brokerWithObserver();
    const relayWith = (options: { batchSize?: number; keepPublishedHours?: number }) => () =>
      new OutboxRelay({ name: 'test-relay', pool, broker, logger, pollMs: 60_000, contracts: [emailSentV1], ...options });
    try {
      expect(relayWith({ batchSize: 0 })).toThrow('batchSize 0 is not a positive integer');
      expect(relayWith({ keepPublishedHours: 1.5 })).toThrow('keepPublishedHours 1.5 is not a positive integer');
      expect(relayWith({ keepPublishedHours: 24, batchSize: 500 })).not.toThrow();
    } finally {
      await close();
    }
  });

  it('keeps the rows when the broker cannot confirm, and publishes them once it is back', async () => {
    const amqp = new URL(servers.amqpUrl);
    const proxy = await startTcpProxy({ host: amqp.hostname, port: Number(amqp.port || 5672) });
    amqp.hostname = '127.0.0.1';
    amqp.port = String(proxy.port);
    const { broker, received, close } = await brokerWithObserver(amqp.toString());
    const relay = new OutboxRelay({ name: 'test-relay', pool, broker, logger, pollMs: 100, contracts: [emailSentV1] });
    try {
      proxy.cut();
      await waitFor(() => (broker.isConnected() ? undefined : true), { what: 'broker disconnect' });
      const ids = await write(['held']);
      relay.start();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([received, await remaining()]).toEqual([[], 1]);
      proxy.resume();
      await waitFor(() => (received.length === 1 ? true : undefined), { timeoutMs: 20_000, what: 'the held fact' });
      expect(received).toEqual([{ messageId: ids[0], step: 'held' }]);
      await waitFor(async () => ((await remaining()) === 0 ? true : undefined), { what: 'the row deleted' });
    } finally {
      await relay.stop();
      await close();
      await proxy.close();
    }
  }, 60_000);
});
