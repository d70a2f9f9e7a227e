import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { Broker, createLogger, QUEUES, emailSentV1 } from '@mailer/shared';
import { brokerRoutes, serviceTestEnv, startTcpProxy, testServers, waitFor } from '@mailer/testing';
import { runAdmin } from '../src/cli/admin';
import { webhooksDatabaseUrl } from '../src/database';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { startWebhooksHarness, type WebhooksHarness } from './support/webhooks-harness';

// This file's own database: "no endpoint" must mean none, whatever the other files create.
const DB_PREFIX = `${testServers().dbPrefix}routing_`;
const namespace = () => `t${randomBytes(4).toString('hex')}.`;
let nextAccount = 5_000_000 + Math.floor(Math.random() * 1_000_000);

/**
 * Only `webhooks.facts` is ever bound to email.sent.v1, workflow.completed.v1 and campaign.sent.v1,
 * so for those `brokerRoutes` answers whether that queue is.
 */
const routed = brokerRoutes;

const emailSent = (accountId: number) => ({
  account_id: accountId,
  contact_id: 1,
  workflow: 'Welcome',
  step: 'hello',
  message_id: `<${randomUUID()}@x>`,
  outcome: 'sent' as const,
  occurred_at: new Date().toISOString(),
});

describe('webhooks.facts is bound only to the facts enabled endpoints subscribe to', () => {
  const ns = namespace();
  let hooks: WebhooksHarness;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    hooks = await startWebhooksHarness({ DB_PREFIX, BROKER_NAMESPACE: ns, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_MS: '50' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await hooks?.stop();
    await receiver?.close();
  });

  async function anEndpoint(accountId: number, eventTypes: string[]): Promise<number> {
    const created = await hooks.call(accountId, 'POST', '/webhook-endpoints', { url: receiver.url, event_types: eventTypes });
    expect(created.status).toBe(201);
    return (created.body?.data as { id: number }).id;
  }

  const remove = async (accountId: number, id: number) => expect((await hooks.call(accountId, 'DELETE', `/webhook-endpoints/${id}`)).status).toBe(204);

  it('with no endpoint nothing is routed to the queue, even after another service declared the topology again', async () => {
    // What every service does at start: without the dynamic bindings, the topology would bind these here.
    const anotherService = Broker.start({ url: hooks.config.AMQP_URL, logger: createLogger('test', { level: 'silent' }), connectionName: 'another-service', namespace: ns });
    await anotherService.ready();
    await anotherService.close();
    for (const fact of ['email.sent.v1', 'workflow.completed.v1', 'campaign.sent.v1']) expect(await routed(ns, fact)).toBe(false);
    // Publishing a fact nobody listens to is not a failure.
    await hooks.broker.publish(emailSentV1, emailSent(nextAccount++), { messageId: randomUUID() });
    expect(hooks.outcomes).toEqual([]);
  });

  it('an endpoint created through the API receives an email.sent fact published right after its 201', async () => {
    const accountId = nextAccount++;
    const id = await anEndpoint(accountId, ['email.sent']);
    await hooks.broker.publish(emailSentV1, emailSent(accountId), { messageId: randomUUID() });
    await waitFor(() => receiver.received.find((request) => request.body.includes(`"account_id":${accountId}`)), { what: 'the email.sent webhook' });
    expect(await routed(ns, 'email.sent.v1')).toBe(true);
    expect(await routed(ns, 'workflow.completed.v1')).toBe(false);
    await remove(accountId, id);
    expect(await routed(ns, 'email.sent.v1')).toBe(false);
  });

  it("disabling or deleting the last endpoint for a type unbinds it before the answer; another account's endpoint keeps it bound", async () => {
    const first = nextAccount++;
    const second = nextAccount++;
    const mine = await anEndpoint(first, ['email.sent']);
    const theirs = await anEndpoint(second, ['email.failed', 'workflow.completed']);
    expect((await hooks.call(first, 'PATCH', `/webhook-endpoints/${mine}`, { enabled: false })).status).toBe(200);
    expect(await routed(ns, 'email.sent.v1')).toBe(true);
    expect(await routed(ns, 'workflow.completed.v1')).toBe(true);

    await remove(second, theirs);
    expect(await routed(ns, 'email.sent.v1')).toBe(false);
    expect(await routed(ns, 'workflow.completed.v1')).toBe(false);

    expect((await hooks.call(first, 'PATCH', `/webhook-endpoints/${mine}`, { enabled: true })).status).toBe(200);
    expect(await routed(ns, 'email.sent.v1')).toBe(true);
    expect((await hooks.call(first, 'PATCH', `/webhook-endpoints/${mine}`, { event_types: ['campaign.sent'] })).status).toBe(200);
    expect(await routed(ns, 'email.sent.v1')).toBe(false);
    expect(await routed(ns, 'campaign.sent.v1')).toBe(true);
    await remove(first, mine);
    expect(await routed(ns, 'campaign.sent.v1')).toBe(false);
  });

  it("a change written by another process (the operator CLI, plain SQL) is picked up through the table's NOTIFY", async () => {
    const accountId = nextAccount++;
    let out = '';
    const cli = await runAdmin(['webhooks', 'create', '--account', String(accountId), '--url', receiver.url, '--events', 'workflow.completed'], {
      env: serviceTestEnv({ DB_PREFIX, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
      stdout: (text) => (out += text),
      stderr: () => undefined,
    });
    expect(cli).toBe(0);
    const id = (JSON.parse(out) as { id: number }).id;
    // Well inside the 60 s safety net: only the NOTIFY explains it.
    await waitFor(async () => ((await routed(ns, 'workflow.completed.v1')) ? true : undefined), { what: 'the CLI endpoint routed', timeoutMs: 5000 });

    const sql = new pg.Client({ connectionString: webhooksDatabaseUrl(hooks.config) });
    await sql.connect();
    try {
      await sql.query('UPDATE endpoints SET enabled = false WHERE id = $1', [id]);
      await waitFor(async () => ((await routed(ns, 'workflow.completed.v1')) ? undefined : true), { what: 'the SQL-disabled endpoint unrouted', timeoutMs: 5000 });
      await sql.query('DELETE FROM endpoints WHERE id = $1', [id]);
    } finally {
      await sql.end();
    }
  });

  it('at start, a binding no endpoint needs (left by an older version) is removed, and the ones endpoints need are made', async () => {
    const accountId = nextAccount++;
    const id = await anEndpoint(accountId, ['campaign.sent']);
    const upgraded = namespace();
    const leftOver = Broker.start({ url: hooks.config.AMQP_URL, logger: createLogger('test', { level: 'silent' }), connectionName: 'older-version', namespace: upgraded });
    await leftOver.ready();
    await leftOver.setQueueBindings(QUEUES.webhooksFacts.name, { bind: ['email.sent.v1', 'workflow.completed.v1'], unbind: [] });
    await leftOver.close();
    expect(await routed(upgraded, 'email.sent.v1')).toBe(true);
    expect(await routed(upgraded, 'campaign.sent.v1')).toBe(false);

    const started = await startWebhooksHarness({ DB_PREFIX, BROKER_NAMESPACE: upgraded });
    try {
      expect((await fetch(`${started.service.url}/readyz`)).status).toBe(200);
      expect(await routed(upgraded, 'email.sent.v1')).toBe(false);
      expect(await routed(upgraded, 'workflow.completed.v1')).toBe(false);
      expect(await routed(upgraded, 'campaign.sent.v1')).toBe(true);
    } finally {
      await started.stop();
      await remove(accountId, id);
    }
  });

  it('while the broker is away a new endpoint is refused (503, nothing saved); after the reconnect the bindings catch up with changes made meanwhile', async () => {
    const amqpUrl = new URL(hooks.config.AMQP_URL);
    const proxy = await startTcpProxy({ host: amqpUrl.hostname, port: Number(amqpUrl.port || 5672) });
    amqpUrl.host = `127.0.0.1:${proxy.port}`;
    const ns2 = namespace();
    const cut = await startWebhooksHarness({ DB_PREFIX, BROKER_NAMESPACE: ns2, AMQP_URL: amqpUrl.toString(), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const accountId = nextAccount++;
    try {
      const created = await cut.call(accountId, 'POST', '/webhook-endpoints', { url: receiver.url, event_types: ['email.sent'] });
      expect(created.status).toBe(201);
      const id = (created.body?.data as { id: number }).id;
      expect(await routed(ns2, 'email.sent.v1')).toBe(true);

      proxy.cut();
      await waitFor(() => (cut.broker.isConnected() ? undefined : true), { what: 'the lost connection' });
      const refused = await cut.call(accountId, 'POST', '/webhook-endpoints', { url: receiver.url, event_types: ['workflow.completed'] });
      expect(refused.status).toBe(503);
      expect((await cut.call(accountId, 'GET', '/webhook-endpoints')).body?.data).toEqual([expect.objectContaining({ id })]);
      // Unbinding can wait: the delete stands, and the reconnect's reconcile unbinds.
      expect((await cut.call(accountId, 'DELETE', `/webhook-endpoints/${id}`)).status).toBe(204);
      expect(await routed(ns2, 'email.sent.v1')).toBe(true);

      proxy.resume();
      await waitFor(async () => ((await routed(ns2, 'email.sent.v1')) ? undefined : true), { what: 'the unbinding after the reconnect', timeoutMs: 15_000 });
    } finally {
      await cut.stop();
      await proxy.close();
    }
  });
});
