import { randomUUID } from 'node:crypto';
import { contactCreatedV1, contactsCreatedV1 } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_TYPES } from '../src/domain/webhook-events';
import { contactCreatedFact, publishOneOfEach } from './support/facts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { startWebhooksHarness, type WebhooksHarness } from './support/webhooks-harness';

interface AttemptJson {
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string;
  error: string | null;
  succeeded: boolean;
}
interface DeliveryJson {
  id: number;
  webhook_id: string;
  event_type: string;
  state: string;
  attempts: AttemptJson[];
}

let nextAccount = 1000 + Math.floor(Math.random() * 1_000_000);

describe('webhook delivery: signed, retried, logged, one endpoint never holding up another', () => {
  let hooks: WebhooksHarness;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // Three attempts a few hundred ms apart, so a spent schedule fits in a test; a short deadline for the hanging endpoint.
    hooks = await startWebhooksHarness({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '150ms,300ms', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_POLL_MS: '50' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await hooks?.stop();
    await receiver?.close();
  });
  afterEach(() => {
    receiver.answer = () => 200;
  });

  async function anEndpoint(accountId: number, eventTypes: readonly string[] = WEBHOOK_EVENT_TYPES, url = receiver.url) {
    const created = await hooks.call(accountId, 'POST', '/webhook-endpoints', { url, event_types: eventTypes });
    expect(created.status).toBe(201);
    return { id: (created.body?.data as { id: number }).id, secret: created.body?.secret as string };
  }

  const forAccount = (accountId: number) => receiver.received.filter((request) => (JSON.parse(request.body) as { account_id: number }).account_id === accountId);

  async function deliveries(accountId: number, endpointId: number): Promise<DeliveryJson[]> {
    const log = await hooks.call(accountId, 'GET', `/webhook-endpoints/${endpointId}/deliveries`);
    expect(log.status).toBe(200);
    return log.body?.data as DeliveryJson[];
  }

  it('delivers every event type once, signed per Standard Webhooks, and only to the account that subscribed', async () => {
    const accountId = nextAccount++;
    const endpoint = await anEndpoint(accountId);
    const other = nextAccount++;
    const narrow = await anEndpoint(other, ['campaign.sent']);
    const ids = await publishOneOfEach(hooks.broker, accountId);
    // A redelivered fact (same message id) is the same webhook, not a second one.
    await hooks.broker.publish(contactCreatedV1, contactCreatedFact(accountId), { messageId: ids[0]! });

    await waitFor(() => (forAccount(accountId).length >= WEBHOOK_EVENT_TYPES.length ? true : undefined), { what: 'every event type' });
    const requests = forAccount(accountId);
    const bodies = requests.map((request) => new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>) as { type: string; version: number; data: Record<string, unknown> });
    expect(bodies.map((body) => body.type).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(bodies.every((body) => body.version === 1)).toBe(true);
    expect(bodies.find((body) => body.type === 'contact.created')?.data).toEqual({
      contact: { id: 1, email: 'c1@example.test', first_name: 'Ada', last_name: null, subscribed: true, bounced: false, tags: ['vip'], custom_properties: { plan: 'pro' } },
    });
    expect(bodies.find((body) => body.type === 'email.bounced')?.data).toEqual({ email: 'c1@example.test', reason: '550 no such user' });
    expect(bodies.find((body) => body.type === 'campaign.sent')?.data).toMatchObject({ campaign_id: 7, sent: 2, failed: 1 });
    expect(bodies.find((body) => body.type === 'workflow.completed')?.data).toEqual({ contact_id: 1, workflow: 'Welcome', last_step: 'later', last_step_outcome: 'failed' });
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(requests.length);
    // A wrong secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.from('another secret of 24 byt').toString('base64')}`).verify(requests[0]!.body, requests[0]!.headers as Record<string, string>)).toThrow();

    // The narrow endpoint of another account got nothing of this account's.
    expect(forAccount(other)).toEqual([]);
    await publishOneOfEach(hooks.broker, other);
    await waitFor(() => (forAccount(other).length === 1 ? true : undefined), { what: "the other account's campaign.sent" });
    expect(receiver.verified(narrow.secret, forAccount(other)).map((body) => body.type)).toEqual(['campaign.sent']);
    expect((await deliveries(accountId, endpoint.id)).every((delivery) => delivery.state === 'succeeded')).toBe(true);
  });

  it('delivers each contact of a contacts.created.v1 batch as its own contact.created webhook, keyed by the fact id', async () => {
    const accountId = nextAccount++;
    const endpoint = await anEndpoint(accountId, ['contact.created']);
    const facts = [1, 2, 3].map((id) => ({ id: `${accountId}-${id}`, fact: contactCreatedFact(accountId, id) }));
    await hooks.broker.publish(contactsCreatedV1, { facts }, { messageId: `batch-${accountId}`, routingKey: contactCreatedV1.type });
    // The same fact again, alone under its id (a relay that crashed before marking its batch): the same webhook.
    await hooks.broker.publish(contactCreatedV1, facts[0]!.fact, { messageId: facts[0]!.id });
    await waitFor(() => (forAccount(accountId).length >= 3 ? true : undefined), { what: 'three webhooks' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const requests = forAccount(accountId);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(3);
    const bodies = receiver.verified(endpoint.secret, requests) as Array<{ type: string; data: { contact: { id: number } } }>;
    expect(bodies.map((body) => [body.type, body.data.contact.id]).sort()).toEqual([
      ['contact.created', 1],
      ['contact.created', 2],
      ['contact.created', 3],
    ]);
  });

  it('retries after 500s with the same webhook-id, and the log shows each attempt with status, latency and answer', async () => {
    const accountId = nextAccount++;
    const endpoint = await anEndpoint(accountId, ['contact.created']);
    let answered = 0;
    receiver.answer = (request) => (request.body.includes(`"account_id":${accountId}`) && ++answered <= 2 ? 500 : 200);
    await hooks.broker.publish(contactCreatedV1, contactCreatedFact(accountId), { messageId: randomUUID() });

    const [delivery] = await waitFor(
      async () => {
        const log = await deliveries(accountId, endpoint.id);
        return log[0]?.state === 'succeeded' ? log : undefined;
      },
      { what: 'the delivery to succeed on its third attempt' },
    );
    expect(delivery!.attempts.map((attempt) => [attempt.attempt, attempt.status_code, attempt.succeeded, attempt.response_excerpt])).toEqual([
      [1, 500, false, 'answered 500'],
      [2, 500, false, 'answered 500'],
      [3, 200, true, 'answered 200'],
    ]);
    expect(delivery!.attempts.every((attempt) => attempt.latency_ms >= 0 && attempt.error === null)).toBe(true);
    const requests = forAccount(accountId);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id']))).toEqual(new Set([delivery!.webhook_id]));
    // Each attempt is signed afresh: every one verifies.
    expect(receiver.verified(endpoint.secret, requests).map((body) => body.type)).toEqual(['contact.created', 'contact.created', 'contact.created']);
    // The waits grow: the third attempt came later after the second than the second after the first.
    expect(requests[2]!.at - requests[1]!.at).toBeGreaterThan(requests[1]!.at - requests[0]!.at);
  });

  it('after the schedule is spent the delivery failed and the endpoint is failing; a resend that succeeds makes it active again', async () => {
    const accountId = nextAccount++;
    const endpoint = await anEndpoint(accountId, ['contact.created']);
    receiver.answer = (request) => (request.body.includes(`"account_id":${accountId}`) ? 503 : 200);
    await hooks.broker.publish(contactCreatedV1, contactCreatedFact(accountId), { messageId: randomUUID() });

    const [failed] = await waitFor(
      async () => {
        const log = await deliveries(accountId, endpoint.id);
        return log[0]?.state === 'failed' ? log : undefined;
      },
      { what: 'the delivery to fail for good' },
    );
    expect(failed!.attempts.map((attempt) => attempt.status_code)).toEqual([503, 503, 503]);
    const shown = await hooks.call(accountId, 'GET', `/webhook-endpoints/${endpoint.id}`);
    expect(shown.body?.data).toMatchObject({ status: 'failing', failing_since: expect.any(String) });

    receiver.answer = () => 200;
    expect((await hooks.call(accountId, 'POST', `/webhook-endpoints/${endpoint.id}/deliveries/${failed!.id}/resend`)).status).toBe(202);
    await waitFor(
      async () => {
        const log = await deliveries(accountId, endpoint.id);
        return log[0]?.state === 'succeeded' ? true : undefined;
      },
      { what: 'the resend to succeed' },
    );
    expect((await hooks.call(accountId, 'GET', `/webhook-endpoints/${endpoint.id}`)).body?.data).toMatchObject({ status: 'active', failing_since: null });
    expect(new Set(forAccount(accountId).map((request) => request.headers['webhook-id'])).size).toBe(1);
  });

  it('a redirect is not followed: the 302 is a failed attempt and its target is never called', async () => {
    const accountId = nextAccount++;
    const endpoint = await anEndpoint(accountId, ['contact.created'], `${receiver.url}?redirect`);
    const target = await startWebhookReceiver();
    try {
      receiver.answer = (request) => (request.body.includes(`"account_id":${accountId}`) ? 302 : 200);
      await hooks.broker.publish(contactCreatedV1, contactCreatedFact(accountId), { messageId: randomUUID() });
      const [delivery] = await waitFor(
        async () => {
          const log = await deliveries(accountId, endpoint.id);
          return log[0]?.attempts[0] ? log : undefined;
        },
        { what: 'the first attempt' },
      );
      expect(delivery!.attempts[0]).toMatchObject({ status_code: 302, succeeded: false });
      expect(target.received).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('rotating the secret shows the new one once; during the overlap both secrets verify', async () => {
    const accountId = nextAccount++;
    const endpoint = await anEndpoint(accountId, ['contact.created']);
    const rotated = await hooks.call(accountId, 'POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body?.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    expect(rotated.body?.data).toMatchObject({ previous_secret_expires_at: expect.any(String) });
    const listed = await hooks.call(accountId, 'GET', '/webhook-endpoints');
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    await hooks.broker.publish(contactCreatedV1, contactCreatedFact(accountId), { messageId: randomUUID() });
    await waitFor(() => (forAccount(accountId).length === 1 ? true : undefined), { what: 'the delivery after rotation' });
    const [request] = forAccount(accountId);
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, newSecret]) {
      expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toMatchObject({ type: 'contact.created' });
    }
  });

  it("an endpoint that never answers delays only itself: another account's webhook arrives at once", async () => {
    const slowAccount = nextAccount++;
    const fastAccount = nextAccount++;
    await anEndpoint(slowAccount, ['contact.created']);
    await anEndpoint(fastAccount, ['contact.created']);
    receiver.answer = (request) => (request.body.includes(`"account_id":${slowAccount}`) ? 'hang' : 200);
    for (let i = 0; i < 5; i++) await hooks.broker.publish(contactCreatedV1, contactCreatedFact(slowAccount, i + 1), { messageId: randomUUID() });
    await waitFor(() => (forAccount(slowAccount).length === 1 ? true : undefined), { what: 'the hanging attempt' });
    const published = Date.now();
    await hooks.broker.publish(contactCreatedV1, contactCreatedFact(fastAccount), { messageId: randomUUID() });
    await waitFor(() => (forAccount(fastAccount).length === 1 ? true : undefined), { what: 'the fast endpoint', timeoutMs: 5000 });
    expect(forAccount(fastAccount)[0]!.at - published).toBeLessThan(1000);
    // One attempt at a time per endpoint: the hanging one was not sent the other four in parallel.
    expect(forAccount(slowAccount)).toHaveLength(1);
  });
});
