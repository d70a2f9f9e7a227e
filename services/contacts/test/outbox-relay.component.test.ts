import { createLogger, type OutboxRelay } from '@mailer/shared';
import { countingPool, startTcpProxy, testServers, waitFor } from '@mailer/testing';
import { contactsOutboxRelay } from '../src/outbox/outbox-relay';
import { brokerProbe } from './support/broker-probe';
import {
  newAccountId,
  startContactsForTest,
  uniqueEmail,
  type ContactsTestService,
} from './support/contacts-test-service';

const CONTACT_FACTS = ['contact.created.v1', 'contact.updated.v1', 'contact.deleted.v1'];

async function outboxRows(service: ContactsTestService, contactId: number) {
  const { rows } = await service.pool.query<{ id: number; message_type: string; published_at: Date | null }>(
    `SELECT id, message_type, published_at FROM outbox
     WHERE (payload->'contact'->>'id')::bigint = $1 OR (payload->>'contact_id')::bigint = $1 ORDER BY id`,
    [contactId],
  );
  return rows;
}

describe('contact facts through the outbox', () => {
  let service: ContactsTestService;
  let probe: Awaited<ReturnType<typeof brokerProbe>>;
  beforeAll(async () => {
    service = await startContactsForTest();
    probe = await brokerProbe(service.config.BROKER_NAMESPACE, CONTACT_FACTS);
  });
  afterAll(async () => {
    await probe.close();
    await service.stop();
  });

  it('publishes exactly one message per change, with the outbox id as message id, and marks each row published', async () => {
    const account = newAccountId();
    const created = (await service.api.create(account, { email: uniqueEmail(), tags: ['t1'] })).body.data;
    await service.api.update(account, created.id, { first_name: 'Zoe', custom_properties: { plan: 'pro' } });
    await service.api.update(account, created.id, { first_name: 'Zoe' }); // no change: no fact
    await service.api.remove(account, created.id);

    const rows = await outboxRows(service, created.id);
    expect(rows.map((row) => row.message_type)).toEqual(CONTACT_FACTS);
    const ids = rows.map((row) => String(row.id));
    const seen = await waitFor(() => {
      const mine = probe.seen.filter((message) => ids.includes(message.messageId));
      return mine.length >= 3 ? mine : undefined;
    });
    await waitFor(async () =>
      (await outboxRows(service, created.id)).every((row) => row.published_at) ? true : undefined,
    );
    expect(seen.map((message) => [message.messageId, message.type])).toEqual(
      rows.map((row) => [String(row.id), row.message_type]),
    );
    expect(seen[0]!.payload).toMatchObject({
      account_id: account,
      contact: {
        id: created.id,
        email: created.email,
        subscribed: false,
        bounced: false,
        tags: ['t1'],
        custom_properties: {},
      },
    });
    expect(seen[1]!.payload).toMatchObject({
      changed: ['first_name', 'custom_properties'],
      contact: { first_name: 'Zoe' },
    });
    expect(seen[2]!.payload).toMatchObject({
      account_id: account,
      contact_id: created.id,
      email: created.email,
    });
  });

  it('writes no outbox row for a refused request', async () => {
    const account = newAccountId();
    const created = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    await service.api.update(account, created.id, { email: 'x@mailinator.com' });
    await service.api.update(account, created.id, { subscribed: 'maybe' });
    expect((await outboxRows(service, created.id)).map((row) => row.message_type)).toEqual([
      'contact.created.v1',
    ]);
  });
});

describe('outbox relay across a broker outage', () => {
  it('keeps rows pending while the broker is unreachable and publishes each exactly once after it returns', async () => {
    const real = new URL(testServers().amqpUrl);
    const proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5672) });
    const viaProxy = new URL(real.toString());
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const service = await startContactsForTest({ AMQP_URL: viaProxy.toString() });
    const probe = await brokerProbe(service.config.BROKER_NAMESPACE, CONTACT_FACTS);
    try {
      proxy.cut();
      await waitFor(() => (service.broker.isConnected() ? undefined : true), {
        what: 'the broker connection to drop',
      });
      const account = newAccountId();
      const created = await service.api.create(account, { email: uniqueEmail() });
      expect(created.status).toBe(201);
      await service.api.update(account, created.body.data.id, { subscribed: true });

      // Several polls pass while the broker is away.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const pending = await outboxRows(service, created.body.data.id);
      expect(pending).toHaveLength(2);
      expect(pending.every((row) => row.published_at === null)).toBe(true);

      proxy.resume();
      const ids = pending.map((row) => String(row.id));
      await waitFor(
        async () =>
          (await outboxRows(service, created.body.data.id)).every((row) => row.published_at)
            ? true
            : undefined,
        {
          timeoutMs: 20_000,
          what: 'rows marked published after reconnecting',
        },
      );
      await waitFor(() =>
        probe.seen.filter((message) => ids.includes(message.messageId)).length >= 2 ? true : undefined,
      );
      const delivered = probe.seen.filter((message) => ids.includes(message.messageId));
      expect(delivered.map((message) => message.messageId)).toEqual(ids);
      expect(delivered.map((message) => message.type)).toEqual(['contact.created.v1', 'contact.updated.v1']);
    } finally {
      await probe.close();
      await service.stop();
      await proxy.close();
    }
  });
});

describe('one relay pass in two round trips', () => {
  it('begins with the claim and commits with the outcome: published rows marked, a failed one counted and kept', async () => {
    const service = await startContactsForTest();
    // Its own relay would take the rows first.
    await service.relay.stop();
    const counted = countingPool(service.pool);
    const relay = contactsOutboxRelay(counted.pool, service.broker, createLogger('relay-test', { level: 'silent' }), 60_000);
    try {
      const account = newAccountId();
      // A type this version does not publish: its publish fails, the rest of the pass goes on.
      const { rows: [unknown] } = await service.pool.query<{ id: number }>(
        "INSERT INTO outbox (message_type, payload) VALUES ('contact.renamed.v9', '{}') RETURNING id",
      );
      const created = await service.api.create(account, { email: uniqueEmail() });
      const before = counted.statements();
      relay.start();
      await waitFor(() => (relay.stats.failedAttempts > 0 ? true : undefined), { what: 'the first pass' });
      expect(counted.statements() - before).toBe(2);
      const { rows } = await service.pool.query<{ id: number; attempts: number; published: boolean }>(
        `SELECT id, attempts, published_at IS NOT NULL AS published FROM outbox
         WHERE id = $1 OR (payload->'contact'->>'id')::bigint = $2 ORDER BY id`,
        [unknown!.id, created.body.data.id],
      );
      expect(rows).toEqual([
        { id: unknown!.id, attempts: 1, published: false },
        { id: expect.any(Number), attempts: 1, published: true },
      ]);
      expect(relay.stats).toEqual({ published: 1, failedAttempts: 1 });
    } finally {
      await relay.stop();
      await service.pool.query("DELETE FROM outbox WHERE message_type = 'contact.renamed.v9'");
      await service.stop();
    }
  });
});

describe('created facts of one pass in one message', () => {
  it('publishes them as one contacts.created.v1 routed as contact.created.v1, each fact under its outbox id, and marks every row', async () => {
    const service = await startContactsForTest();
    const probe = await brokerProbe(service.config.BROKER_NAMESPACE, ['contact.created.v1', 'contact.updated.v1']);
    // The rows wait for one pass of a relay started once they are all there.
    await service.relay.stop();
    let relay: OutboxRelay | undefined;
    try {
      const account = newAccountId();
      const created: Array<{ id: number }> = [];
      for (let index = 0; index < 3; index += 1) created.push((await service.api.create(account, { email: uniqueEmail(), first_name: `C${index}` })).body.data);
      await service.api.update(account, created[0]!.id, { first_name: 'Changed' });
      const rows = await service.pool.query<{ id: string; message_type: string }>(
        "SELECT id::text, message_type FROM outbox WHERE published_at IS NULL AND payload->>'account_id' = $1 ORDER BY id",
        [String(account)],
      );
      relay = contactsOutboxRelay(service.pool, service.broker, createLogger('relay-test', { level: 'silent' }), 50);
      relay.start();
      const seen = await waitFor(() => (probe.seen.length >= 2 ? probe.seen : undefined), { what: 'the facts published' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(probe.seen).toHaveLength(2);
      const batch = seen.find((message) => message.type === 'contacts.created.v1')!;
      expect(batch.routingKey).toBe('contact.created.v1');
      const createdRows = rows.rows.filter((row) => row.message_type === 'contact.created.v1');
      expect(batch.payload).toEqual({
        facts: createdRows.map((row, index) => ({
          id: row.id,
          fact: expect.objectContaining({ account_id: account, contact: expect.objectContaining({ id: created[index]!.id, first_name: `C${index}` }) }),
        })),
      });
      // Any other fact travels alone, under its own id.
      const update = rows.rows.find((row) => row.message_type === 'contact.updated.v1')!;
      expect(seen.find((message) => message.type === 'contact.updated.v1')?.messageId).toBe(update.id);
      await waitFor(async () => {
        const { rows: pending } = await service.pool.query("SELECT 1 FROM outbox WHERE published_at IS NULL AND payload->>'account_id' = $1", [String(account)]);
        return pending.length === 0 ? true : undefined;
      }, { what: 'every row marked published' });
    } finally {
      await relay?.stop();
      await probe.close();
      await service.stop();
    }
  });
});
