import { createLogger, IDENTITY_HEADER } from '@mailer/shared';
import { freePort, signedIdentityFor, waitFor } from '@mailer/testing';
import { Webhook } from 'standardwebhooks';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { loadWebhooksConfig } from '../../services/webhooks/src/config';
import { WEBHOOK_EVENT_TYPES } from '../../services/webhooks/src/domain/webhook-events';
import { startWebhooksService } from '../../services/webhooks/src/webhooks-service';
import { startWebhookReceiver, type WebhookReceiver } from '../../services/webhooks/test/support/webhook-receiver';
import { campaignDriver } from './support/campaign-driver';
import { startProduct, type Product } from './stack-harness';

type Body = { type: string; account_id: number; data: Record<string, unknown> };

describe('webhooks on the real stack: each event type, caused by real use, signed and verified (issue #22)', () => {
  let product: Product;
  let webhooks: Awaited<ReturnType<typeof startWebhooksService>>;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // Chosen first, so the gateway knows where to fetch the webhooks part of its API document.
    const webhooksPort = await freePort();
    product = await startProduct({ env: { SEND_MAX_ATTEMPTS: '1' }, gatewayEnv: { WEBHOOKS_SERVICE_URL: `http://127.0.0.1:${webhooksPort}` } });
    // The receiver listens on 127.0.0.1, so this stack's operator allows that one address.
    webhooks = await startWebhooksService(
      loadWebhooksConfig({
        ...product.env,
        PORT: String(webhooksPort),
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_SCHEDULE: '100ms,200ms',
        WEBHOOK_POLL_MS: '50',
      }),
      createLogger('webhooks', { level: 'silent' }),
    );
    await webhooks.broker.ready();
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    await webhooks?.stop();
    await product?.stop();
    await receiver?.close();
  });

  async function internal(accountId: number, method: string, path: string, body?: unknown) {
    const url = `${webhooks.url}/internal/v1${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, {
      method,
      headers: { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body: payload }), ...(payload ? { 'content-type': 'application/json' } : {}) },
      body: payload,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('a REST contact, an event with a workflow, a bounce, an unsubscribe, a delete and a campaign each reach the endpoint', async () => {
    const account = await product.anAccountWithKey();
    const created = await internal(account.accountId, 'POST', '/webhook-endpoints', { url: receiver.url, event_types: WEBHOOK_EVENT_TYPES });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    await importWorkflows(product.automation.workflowWrites, account.accountId, [
      { name: 'Welcome', trigger: { event: 'signup' }, steps: [{ id: 'hello', type: 'email', subject: 'Hi {{ contact.first_name }}', html: '<p>Hi <a href="https://example.org/start">start</a></p>' }] },
    ]);
    const drive = campaignDriver(product, account);
    expect((await drive.automation('PUT', '/tracking-settings', { link_tracking: true, open_tracking: true })).status).toBe(200);
    const mine = () =>
      receiver.received
        .map((request) => new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as Body)
        .filter((body) => body.account_id === account.accountId);
    const arrived = (type: string) => waitFor(() => mine().find((body) => body.type === type), { what: `a ${type} webhook`, timeoutMs: 20_000 });

    // contact.created, contact.updated and contact.unsubscribed through the REST interface.
    const email = `ada${account.accountId}@example.test`;
    const contact = await product.api(account.key, 'POST', '/contacts', { email, first_name: 'Ada', subscribed: true });
    const contactId = (contact.body?.data as { id: number }).id;
    expect((await arrived('contact.created')).data).toMatchObject({ contact: { id: contactId, email, first_name: 'Ada', subscribed: true } });

    // email.sent and workflow.completed from an event that runs a one-step workflow.
    expect((await product.sendEvent(account.key, { event: 'signup', email })).status).toBe(202);
    expect((await arrived('email.sent')).data).toMatchObject({ contact_id: contactId, workflow: 'Welcome', step: 'hello' });
    expect((await arrived('workflow.completed')).data).toEqual({ contact_id: contactId, workflow: 'Welcome', last_step: 'hello', last_step_outcome: 'sent' });

    // email.opened and email.clicked when the email's pixel loads and its link is followed (seconds
    // after delivery, so both are marked as a machine's).
    const html = String(product.smtp.messages.find((message) => message.to.includes(email))!.parsed.html);
    for (const kind of ['o', 'c']) {
      const url = new RegExp(`${product.env.PUBLIC_BASE_URL}/t/${kind}/[A-Za-z0-9_-]+`).exec(html)![0];
      expect([kind, (await fetch(url, { redirect: 'manual' })).status]).toEqual([kind, kind === 'o' ? 200 : 302]);
    }
    expect((await arrived('email.opened')).data).toMatchObject({ contact_id: contactId, campaign_id: null, workflow_id: expect.any(Number), step: 'hello', machine: true });
    expect((await arrived('email.clicked')).data).toMatchObject({ contact_id: contactId, step: 'hello', url: 'https://example.org/start', machine: true });

    // email.failed and email.bounced from a 550 at RCPT.
    const gone = `gone${account.accountId}@example.test`;
    product.smtp.onRecipient = (address) => (address === gone ? { accept: false, code: 550, message: 'mailbox unavailable' } : { accept: true });
    try {
      expect((await product.sendEvent(account.key, { event: 'signup', email: gone })).status).toBe(202);
      expect((await arrived('email.bounced')).data).toMatchObject({ email: gone, reason: expect.stringContaining('550') });
      expect((await arrived('email.failed')).data).toMatchObject({ workflow: 'Welcome', step: 'hello' });
    } finally {
      product.smtp.onRecipient = () => ({ accept: true });
    }

    expect((await product.api(account.key, 'PATCH', `/contacts/${contactId}`, { subscribed: false })).status).toBe(200);
    expect((await arrived('contact.unsubscribed')).data).toMatchObject({ contact: { id: contactId, subscribed: false } });
    expect(mine().some((body) => body.type === 'contact.updated' && (body.data.changed as string[]).includes('subscribed'))).toBe(true);

    // campaign.sent once a campaign to the account's one subscribed contact finished.
    await product.api(account.key, 'POST', '/contacts', { email: `bea${account.accountId}@example.test`, subscribed: true });
    // Bea is the one subscribed, unbounced contact; wait until automation's projection knows her.
    await waitFor(async () => (((await drive.automation('GET', '/audience-count')).body?.data as { count: number }).count === 1 ? true : undefined), {
      what: 'the audience in the projection',
      timeoutMs: 20_000,
    });
    const campaignId = await drive.create({ name: 'News', title: 'News', html: '<p>News</p>' });
    await drive.act(campaignId, 'approve');
    await drive.act(campaignId, 'send');
    expect((await arrived('campaign.sent')).data).toMatchObject({ campaign_id: campaignId, name: 'News', sent: expect.any(Number) });

    expect((await product.api(account.key, 'DELETE', `/contacts/${contactId}`)).status).toBe(204);
    expect((await arrived('contact.deleted')).data).toEqual({ contact_id: contactId, email });

    expect(new Set(mine().map((body) => body.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
  }, 90_000);

  it("the gateway's OpenAPI document describes every event type under `webhooks`, each payload a component schema", async () => {
    const document = (await (await fetch(`${product.gateway.url}/api/v1/openapi.json`)).json()) as {
      openapi: string;
      webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const item of Object.values(document.webhooks)) {
      const name = item.post.requestBody.content['application/json'].schema.$ref.replace('#/components/schemas/', '');
      expect(Object.keys(document.components.schemas[name]!.properties)).toEqual(['type', 'version', 'timestamp', 'account_id', 'data']);
    }
  });
});
