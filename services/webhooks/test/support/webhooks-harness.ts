import { createLogger, IDENTITY_HEADER, type ConsumeOutcome } from '@mailer/shared';
import { serviceTestEnv, signedIdentityFor, waitFor } from '@mailer/testing';
import { loadWebhooksConfig } from '../../src/config';
import { startWebhooksService } from '../../src/webhooks-service';

/** The webhooks service in-process on port 0, with a helper to call its internal API as the app would. */
export async function startWebhooksHarness(env: Record<string, string> = {}) {
  const outcomes: Array<{ outcome: ConsumeOutcome; messageId: string | undefined }> = [];
  const config = loadWebhooksConfig(serviceTestEnv(env));
  const service = await startWebhooksService(config, createLogger('webhooks', { level: 'silent' }), {
    onFactOutcome: (outcome, messageId) => outcomes.push({ outcome, messageId }),
  });
  await service.broker.ready();
  // Ready means the queue's bindings match the endpoints (the first reconcile ran).
  await waitFor(() => (service.factRouting.hasReconciled() ? true : undefined), { what: 'the first fact-routing reconcile' });
  async function call(accountId: number, method: string, path: string, body?: unknown) {
    const url = `${service.url}/internal/v1${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, {
      method,
      headers: {
        [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body: payload }),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: payload,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> | undefined };
  }
  return { service, config, outcomes, call, pool: service.pool, broker: service.broker, stop: () => service.stop() };
}

export type WebhooksHarness = Awaited<ReturnType<typeof startWebhooksHarness>>;
