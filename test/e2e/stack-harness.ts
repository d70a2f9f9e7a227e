import { randomBytes } from 'node:crypto';
import { createLogger } from '@mailer/shared';
import type { Logger } from 'pino';
import {
  freePort,
  removeNamespace,
  serviceTestEnv,
  startDnsTestServer,
  startSmtpSink,
  testServers,
  type DnsTestServer,
  type SmtpSink,
} from '@mailer/testing';
import { loadCampaignsConfig } from '../../services/campaigns/src/config';
import { startCampaignsService } from '../../services/campaigns/src/campaigns-service';
import { loadContactsConfig } from '../../services/contacts/src/config';
import { startContactsService, type ContactsService } from '../../services/contacts/src/contacts-service';
import { loadEventsConfig } from '../../services/events/src/config';
import { startEventsService, type EventsService } from '../../services/events/src/events-service';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGatewayService } from '../../services/gateway/src/gateway-service';
import { createAccount } from '../../services/gateway/src/domain/create-account';
import { createApiKey } from '../../services/gateway/src/domain/manage-api-keys';
import { loadAutomationConfig } from '../../services/automation/src/config';
import { startAutomationService, type AutomationService } from '../../services/automation/src/automation-service';
import { loadWebConfig } from '../../services/web/src/config';
import { startWebService } from '../../services/web/src/web-service';
import { loadWebhooksConfig } from '../../services/webhooks/src/config';
import { startWebhooksService } from '../../services/webhooks/src/webhooks-service';

const silent = (service: string) => createLogger(service, { level: 'silent' });

export interface ProductOptions {
  /** Each service's logger (default: silent); a test that inspects log lines passes its own. */
  logger?: (service: string) => Logger;
  /** Extra gateway environment, e.g. a higher AUTH_FAIL_LIMIT for a suite of refused keys. */
  gatewayEnv?: Record<string, string>;
  /** Extra environment for every service, e.g. faster retries for a suite that waits them out. */
  env?: Record<string, string>;
  /** Extra events-service environment, e.g. an AMQP_URL through a proxy a test can cut. */
  eventsEnv?: Record<string, string>;
  /**
   * Start the webhooks service too, with this extra environment (e.g. WEBHOOK_ALLOWED_HOSTS for a
   * receiver on 127.0.0.1). Without it the app's webhook pages answer 503 (nothing listens).
   */
  webhooksEnv?: Record<string, string>;
}

/**
 * The product as a client sees it: gateway, contacts, campaigns, events, automation and the account
 * app in-process on free ports (webhooks on request), one broker namespace, a loopback DNS server
 * for domain checks and an SMTP sink. Each service gets its own database, exactly as in production.
 */
export async function startProduct(options: ProductOptions = {}) {
  const logger = options.logger ?? silent;
  const dns: DnsTestServer = await startDnsTestServer();
  const smtp: SmtpSink = await startSmtpSink();
  // The gateway's port is chosen first: automation writes it into every unsubscribe link.
  const gatewayPort = await freePort();
  // The account app starts after the gateway (it calls the gateway's internal listener), on a port
  // chosen now so the gateway knows where to route /app.
  const webPort = await freePort();
  // Named for the gateway and the app even when the webhooks service is not started: never a
  // default port another stack on this machine may be using.
  const webhooksPort = await freePort();
  const shared = serviceTestEnv({
    DB_PREFIX: `${process.env.DB_PREFIX}e2e${randomBytes(3).toString('hex')}_`,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SMTP_URL: smtp.url,
    PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
    SCHEDULER_POLL_MS: '100',
    OUTBOX_POLL_MS: '50',
    // Redis keys of this product only: every file's requests come from 127.0.0.1, and one shared
    // per-IP window made parallel files answer each other's 429s.
    REDIS_KEY_PREFIX: `${testServers().redisKeyPrefix}gw${randomBytes(3).toString('hex')}:`,
    ...options.env,
  });
  let contacts: ContactsService = await startContactsService(loadContactsConfig(shared), logger('contacts'));
  const campaigns = await startCampaignsService(loadCampaignsConfig(shared), logger('campaigns'));
  const events: EventsService = await startEventsService(loadEventsConfig({ ...shared, ...options.eventsEnv }), logger('events'));
  // After contacts: a campaign sent to a segment reads its members from contacts' internal API.
  let automation: AutomationService = await startAutomationService(loadAutomationConfig({ ...shared, CONTACTS_SERVICE_URL: contacts.url }), logger('automation'));
  const gateway = await startGatewayService(
    loadGatewayConfig({
      ...shared,
      GATEWAY_PORT: String(gatewayPort),
      EVENTS_PORT: '0',
      CONTACTS_SERVICE_URL: contacts.url,
      CAMPAIGNS_SERVICE_URL: campaigns.url,
      EVENTS_SERVICE_URL: events.url,
      AUTOMATION_SERVICE_URL: automation.url,
      WEB_SERVICE_URL: `http://127.0.0.1:${webPort}`,
      WEBHOOKS_SERVICE_URL: `http://127.0.0.1:${webhooksPort}`,
      ...options.gatewayEnv,
    }),
    logger('gateway'),
  );
  const web = await startWebService(
    loadWebConfig({
      ...shared,
      PORT: String(webPort),
      GATEWAY_INTERNAL_URL: gateway.internalUrl,
      CONTACTS_SERVICE_URL: contacts.url,
      CAMPAIGNS_SERVICE_URL: campaigns.url,
      AUTOMATION_SERVICE_URL: automation.url,
      WEBHOOKS_SERVICE_URL: `http://127.0.0.1:${webhooksPort}`,
    }),
    logger('web'),
  );
  const webhooks = options.webhooksEnv
    ? await startWebhooksService(loadWebhooksConfig({ ...shared, PORT: String(webhooksPort), ...options.webhooksEnv }), logger('webhooks'))
    : undefined;
  await webhooks?.broker.ready();
  await Promise.all([contacts.broker.ready(), campaigns.broker.ready(), events.broker.ready(), automation.broker.ready()]);

  /** A new account on `plan` and a key for it, made the way the CLI makes them. */
  async function anAccountWithKey(plan: 'free' | 'pro' = 'pro') {
    const account = await createAccount(gateway.pool, { name: `E2E ${randomBytes(3).toString('hex')}`, plan });
    const { plaintext } = await createApiKey(gateway.pool, {
      accountId: account.id,
      name: 'e2e',
      expiresOn: null,
      allowPast: false,
    });
    return { accountId: account.id, key: plaintext };
  }

  /** A JSON call to the REST API through the gateway with `key`. */
  async function api(key: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${gateway.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  }

  /** `POST {events_url}/v1/events` with `key`. */
  async function sendEvent(key: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${gateway.eventsUrl}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  }

  /**
   * Stops a consumer of the event path, as an outage or a redeploy would; the function it returns
   * starts it again on the same port, databases and queues.
   */
  async function takeDown(service: 'contacts' | 'automation'): Promise<() => Promise<void>> {
    const port = new URL(service === 'contacts' ? contacts.url : automation.url).port;
    await (service === 'contacts' ? contacts : automation).stop();
    return async () => {
      if (service === 'contacts') {
        contacts = await startContactsService(loadContactsConfig({ ...shared, PORT: port }), logger('contacts'));
        await contacts.broker.ready();
      } else {
        automation = await startAutomationService(loadAutomationConfig({ ...shared, PORT: port, CONTACTS_SERVICE_URL: contacts.url }), logger('automation'));
        await automation.broker.ready();
      }
    };
  }

  return {
    /** The environment every service was started with (its DB_PREFIX names this stack's databases). */
    env: shared,
    gateway,
    get contacts() {
      return contacts;
    },
    campaigns,
    events,
    get automation() {
      return automation;
    },
    takeDown,
    web,
    /** Started only when `webhooksEnv` was given. */
    webhooks,
    sendEvent,
    dns,
    smtp,
    anAccountWithKey,
    api,
    async stop() {
      await gateway.stop();
      await web.stop();
      await webhooks?.stop();
      await Promise.all([contacts.stop(), campaigns.stop(), events.stop(), automation.stop()]);
      await Promise.all([dns.close(), smtp.close()]);
      // Its quorum queues go now, not when the file ends: a file of several products holds one set at a time.
      await removeNamespace(shared.AMQP_URL!, shared.BROKER_NAMESPACE!);
    },
  };
}

export type Product = Awaited<ReturnType<typeof startProduct>>;
