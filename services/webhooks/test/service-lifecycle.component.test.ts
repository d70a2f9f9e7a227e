import { createLogger } from '@mailer/shared';
import { serviceTestEnv, waitFor } from '@mailer/testing';
import { loadWebhooksConfig } from '../src/config';
import { startWebhooksService } from '../src/webhooks-service';
import { runAdmin } from '../src/cli/admin';
import { startWebhookReceiver } from './support/webhook-receiver';

describe('webhooks service lifecycle', () => {
  it('listens on loopback by default, answers health and readiness, guards /metrics with METRICS_TOKEN, refuses unsigned calls, serves its OpenAPI webhooks', async () => {
    const config = loadWebhooksConfig(serviceTestEnv({ METRICS_TOKEN: 'metrics-token-for-this-test' }));
    expect(config.HOST).toBe('127.0.0.1');
    const service = await startWebhooksService(config, createLogger('webhooks', { level: 'silent' }));
    try {
      expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ status: 'ok', service: 'webhooks' });
      await service.broker.ready();
      // Ready once connected and the queue's bindings were reconciled with the endpoints.
      await waitFor(async () => ((await fetch(`${service.url}/readyz`)).status === 200 ? true : undefined), { what: 'readiness' });
      expect((await fetch(`${service.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${service.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-this-test' } })).status).toBe(200);
      const unsigned = await fetch(`${service.url}/internal/v1/webhook-endpoints`);
      expect(unsigned.status).toBe(401);
      const fragment = (await (await fetch(`${service.url}/openapi-fragment.json`)).json()) as { webhooks: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
      expect(Object.keys(fragment.webhooks)).toHaveLength(11);
      expect(fragment.components.schemas.EmailClickedWebhook).toBeDefined();
      expect(fragment.components.schemas.ContactCreatedWebhook).toBeDefined();
    } finally {
      await service.stop();
    }
  });
});

describe('npm run admin -- webhooks', () => {
  it('creates (secret printed once), lists without secrets, updates, rotates, shows deliveries and deletes; bad input exits 1 or 2', async () => {
    const receiver = await startWebhookReceiver();
    const env = serviceTestEnv({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const run = async (...argv: string[]) => {
      let out = '';
      let err = '';
      const code = await runAdmin(['webhooks', ...argv], { env, stdout: (text) => (out += text), stderr: (text) => (err += text) });
      return { code, json: out ? (JSON.parse(out) as Record<string, unknown> & Array<Record<string, unknown>>) : undefined, err };
    };
    try {
      const account = String(3_000_000 + Math.floor(Math.random() * 1_000_000));
      const created = await run('create', '--account', account, '--url', receiver.url, '--events', 'contact.created,email.sent');
      expect(created.code).toBe(0);
      expect(created.json).toMatchObject({ url: receiver.url, event_types: ['contact.created', 'email.sent'], status: 'active', secret: expect.stringMatching(/^whsec_/) });
      const id = String(created.json!.id);
      const listed = await run('list', '--account', account);
      expect(listed.json).toHaveLength(1);
      expect(JSON.stringify(listed.json)).not.toContain('whsec_');
      expect((await run('update', '--id', id, '--disable')).json).toMatchObject({ enabled: false, status: 'disabled' });
      const rotated = await run('rotate-secret', '--id', id);
      expect(rotated.json?.secret).not.toBe(created.json!.secret);
      expect((await run('deliveries', '--id', id)).json).toEqual([]);
      expect((await run('resend', '--id', id, '--delivery', '999999')).code).toBe(1);
      expect((await run('create', '--account', account, '--url', 'http://10.0.0.1/', '--events', 'contact.created')).err).toContain('10.0.0.1 is a private address');
      expect((await run('create', '--account', account, '--url', receiver.url)).code).toBe(1);
      expect((await run('list')).code).toBe(2);
      expect((await run('delete', '--id', id)).json).toEqual({ deleted: Number(id) });
      expect((await run('list', '--account', account)).json).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
