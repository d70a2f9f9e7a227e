import { randomBytes } from 'node:crypto';
import { createLogger } from '@mailer/shared';
import {
  serviceTestEnv,
  startDnsTestServer,
  startSmtpSink,
  type DnsTestServer,
  type SmtpSink,
} from '@mailer/shared/testing';
import { loadCampaignsConfig } from '../../services/campaigns/src/config';
import { startCampaignsService } from '../../services/campaigns/src/campaigns-service';
import { loadContactsConfig } from '../../services/contacts/src/config';
import { startContactsService } from '../../services/contacts/src/contacts-service';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGatewayService } from '../../services/gateway/src/gateway-service';
import { createAccount } from '../../services/gateway/src/domain/create-account';
import { createApiKey } from '../../services/gateway/src/domain/manage-api-keys';

const silent = (service: string) => createLogger(service, { level: 'silent' });

/**
 * The product as a client sees it: gateway, contacts and campaigns in-process on free ports, one
 * broker namespace, a loopback DNS server for domain checks and an SMTP sink. Each service gets
 * its own database, exactly as in production.
 */
export async function startProduct() {
  const dns: DnsTestServer = await startDnsTestServer();
  const smtp: SmtpSink = await startSmtpSink();
  const shared = serviceTestEnv({
    DB_PREFIX: `${process.env.DB_PREFIX}e2e${randomBytes(3).toString('hex')}_`,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SMTP_URL: smtp.url,
  });
  const contacts = await startContactsService(loadContactsConfig(shared), silent('contacts'));
  const campaigns = await startCampaignsService(loadCampaignsConfig(shared), silent('campaigns'));
  const gateway = await startGatewayService(
    loadGatewayConfig({
      ...shared,
      GATEWAY_PORT: '0',
      EVENTS_PORT: '0',
      CONTACTS_SERVICE_URL: contacts.url,
      CAMPAIGNS_SERVICE_URL: campaigns.url,
    }),
    silent('gateway'),
  );
  await Promise.all([contacts.broker.ready(), campaigns.broker.ready()]);

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

  return {
    gateway,
    contacts,
    campaigns,
    dns,
    smtp,
    anAccountWithKey,
    api,
    async stop() {
      await gateway.stop();
      await Promise.all([contacts.stop(), campaigns.stop()]);
      await Promise.all([dns.close(), smtp.close()]);
    },
  };
}

export type Product = Awaited<ReturnType<typeof startProduct>>;
