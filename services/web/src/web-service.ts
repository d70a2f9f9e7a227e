import type { Logger } from 'pino';
import { createMetricsRegistry, createPool, listen, logStarted, migrateDatabase, SignedClient, stopInOrder } from '@mailer/shared';
import type { WebConfig } from './config';
import { AccountFiguresClient } from './data-access/account-figures.client';
import { AutomationClient } from './data-access/automation.client';
import { CampaignsClient } from './data-access/campaigns.client';
import { EngagementClient } from './data-access/engagement.client';
import { SegmentsClient } from './data-access/segments.client';
import { ContactsClient } from './data-access/contacts.client';
import { GatewayClient } from './data-access/gateway.client';
import { PasswordResetClient } from './data-access/password-reset.client';
import { DoubleOptInClient } from './data-access/double-opt-in.client';
import { WebhooksClient } from './data-access/webhooks.client';
import { webDatabaseUrl, MIGRATIONS_DIR } from './database';
import { ImportWorker } from './domain/import-worker';
import { Sessions } from './domain/sessions';
import { buildApp } from './entry-points/http/app';
import { NewKeyFlash } from './entry-points/pages/settings/new-key-flash';

/** A service answers its /healthz: enough for readiness (its own dependencies are its business). */
const healthCheck = (url: string) => async () => {
  const response = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(1500) });
  if (!response.ok) throw new Error(`answered ${response.status}`);
};

/** Composition root: migrate, connect, serve. Returns the address and a graceful stop. */
export async function startWebService(config: WebConfig, logger: Logger) {
  const databaseUrl = webDatabaseUrl(config);
  const metrics = createMetricsRegistry('web');
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  const client = (name: string, url: string) => new SignedClient(name, url, config.INTERNAL_SIGNING_SECRET, config.UPSTREAM_TIMEOUT_MS);
  const clients = {
    gateway: client('gateway', config.GATEWAY_INTERNAL_URL),
    contacts: client('contacts', config.CONTACTS_SERVICE_URL),
    campaigns: client('campaigns', config.CAMPAIGNS_SERVICE_URL),
    automation: client('automation', config.AUTOMATION_SERVICE_URL),
    webhooks: client('webhooks', config.WEBHOOKS_SERVICE_URL),
  };
  const gateway = new GatewayClient(clients.gateway);
  const contacts = new ContactsClient(clients.contacts);
  const importWorker = new ImportWorker(pool, contacts, logger);
  const server = await listen(
    buildApp({
      logger,
      pool,
      sessions: new Sessions(pool, gateway, config.SESSION_TTL_HOURS * 3600),
      gateway,
      contacts,
      campaigns: new CampaignsClient(clients.campaigns),
      automation: new AutomationClient(clients.automation),
      figures: new AccountFiguresClient(clients.automation),
      engagement: new EngagementClient(clients.automation),
      segments: new SegmentsClient(clients.contacts),
      webhooks: new WebhooksClient(clients.webhooks),
      doubleOptIn: new DoubleOptInClient(clients.contacts, clients.automation),
      passwordReset: new PasswordResetClient(clients.gateway, clients.automation),
      publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
      importWorker,
      flash: new NewKeyFlash(config.INTERNAL_SIGNING_SECRET),
      metrics,
      metricsToken: config.METRICS_TOKEN,
      trustProxy: config.TRUST_PROXY,
      readiness: [
        { name: 'gateway', check: healthCheck(config.GATEWAY_INTERNAL_URL) },
        { name: 'contacts', check: healthCheck(config.CONTACTS_SERVICE_URL) },
      ],
    }),
    config.PORT,
    config.HOST,
  );
  importWorker.start();
  logStarted(logger, 'web', [`http://${config.HOST}:${server.port}`], {
    postgres: databaseUrl,
    gateway: config.GATEWAY_INTERNAL_URL,
    contacts: config.CONTACTS_SERVICE_URL,
  });
  return {
    url: server.url,
    pool,
    metrics,
    stop: () => stopInOrder([() => server.close(), () => importWorker.stop(), () => Promise.all(Object.values(clients).map((c) => c.close())), () => pool.end()]),
  };
}
