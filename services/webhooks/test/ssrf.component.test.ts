import { randomUUID } from 'node:crypto';
import { contactCreatedV1 } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { contactCreatedFact } from './support/facts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { startWebhooksHarness, type WebhooksHarness } from './support/webhooks-harness';

let nextAccount = 2_000_000 + Math.floor(Math.random() * 1_000_000);

describe('webhook URLs: no private, loopback or link-local address unless the operator allows it', () => {
  let strict: WebhooksHarness;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    strict = await startWebhooksHarness({ WEBHOOK_POLL_MS: '50' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await strict?.stop();
    await receiver?.close();
  });

  it.each([
    ['http://127.0.0.1:%PORT%/hooks', 'loopback'],
    ['http://localhost:%PORT%/hooks', 'loopback'],
    ['http://[::1]:%PORT%/hooks', 'loopback'],
    ['http://[::ffff:127.0.0.1]:%PORT%/hooks', 'loopback'],
    ['http://[::ffff:a9fe:a9fe]/latest/meta-data', 'link-local'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://10.1.2.3/hooks', 'private'],
    ['http://192.168.0.10/hooks', 'private'],
    ['http://[fd00::1]/hooks', 'private'],
    ['http://[fe80::1]/hooks', 'link-local'],
    ['http://0.0.0.0:%PORT%/', 'unspecified'],
  ])('refuses %s (%s) with 422 and stores nothing', async (template, kind) => {
    const accountId = nextAccount++;
    const url = template.replace('%PORT%', String(receiver.port));
    const created = await strict.call(accountId, 'POST', '/webhook-endpoints', { url, event_types: ['contact.created'] });
    expect(created.status).toBe(422);
    expect(JSON.stringify(created.body)).toContain(kind);
    expect((await strict.call(accountId, 'GET', '/webhook-endpoints')).body?.data).toEqual([]);
  });

  it.each([
    [{ url: 'ftp://example.com/hooks', event_types: ['contact.created'] }, 'http or https'],
    [{ url: 'https://user:pw@example.com/hooks', event_types: ['contact.created'] }, 'user name'],
    [{ url: 'not a url', event_types: ['contact.created'] }, 'absolute URL'],
    [{ url: 'https://example.com/hooks', event_types: ['contact.exploded'] }, 'event_types'],
    [{ url: 'https://example.com/hooks', event_types: [] }, 'at least one'],
    [{ url: 'https://example.com/hooks', event_types: ['contact.created'], secret: 'mine' }, 'secret'],
  ])('refuses bad input %j with 422 naming the problem', async (body, problem) => {
    const created = await strict.call(nextAccount++, 'POST', '/webhook-endpoints', body);
    expect(created.status).toBe(422);
    expect(JSON.stringify(created.body)).toContain(problem);
  });

  it('an endpoint saved while private addresses were allowed is refused at delivery time: logged, nothing sent', async () => {
    const accountId = nextAccount++;
    const { rows } = await strict.pool.query<{ id: string }>(
      `INSERT INTO endpoints (account_id, url, event_types, secret) VALUES ($1, $2, '{contact.created}', $3) RETURNING id`,
      [accountId, receiver.url, `whsec_${Buffer.from('0123456789abcdef01234567').toString('base64')}`],
    );
    // Written behind the service's back: its facts are routed once a reconcile ran (the NOTIFY's, or this one).
    await strict.service.factRouting.reconcile();
    await strict.broker.publish(contactCreatedV1, contactCreatedFact(accountId), { messageId: randomUUID() });
    const log = await waitFor(
      async () => {
        const answer = await strict.call(accountId, 'GET', `/webhook-endpoints/${rows[0]!.id}/deliveries`);
        const [delivery] = answer.body?.data as Array<{ attempts: Array<{ status_code: number | null; error: string | null }> }>;
        return delivery?.attempts[0] ? delivery : undefined;
      },
      { what: 'the refused attempt' },
    );
    expect(log.attempts[0]).toEqual(expect.objectContaining({ status_code: null, error: 'refused: 127.0.0.1 is a loopback address' }));
    expect(receiver.received).toEqual([]);
  });

  it('WEBHOOK_ALLOWED_HOSTS lets the operator allow a range, and WEBHOOK_ALLOW_PRIVATE everything', async () => {
    const ranged = await startWebhooksHarness({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.0/8' });
    const open = await startWebhooksHarness({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    try {
      const body = { url: receiver.url, event_types: ['contact.created'] };
      expect((await ranged.call(nextAccount++, 'POST', '/webhook-endpoints', body)).status).toBe(201);
      expect((await ranged.call(nextAccount++, 'POST', '/webhook-endpoints', { ...body, url: 'http://10.0.0.1/' })).status).toBe(422);
      expect((await open.call(nextAccount++, 'POST', '/webhook-endpoints', { ...body, url: 'http://10.0.0.1/' })).status).toBe(201);
    } finally {
      await ranged.stop();
      await open.stop();
    }
  });
});
