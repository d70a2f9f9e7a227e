import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { IDENTITY_HEADER } from '@mailer/shared';
import { freePort, serviceTestEnv, signedIdentityFor, startSmtpSink, waitFor, type SmtpSink } from '@mailer/testing';
import { loadAutomationConfig } from '../../services/automation/src/config';
import { automationDatabaseUrl } from '../../services/automation/src/database';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { gatewayDatabaseUrl } from '../../services/gateway/src/database';
import { createAccount } from '../../services/gateway/src/domain/create-account';
import { createApiKey } from '../../services/gateway/src/domain/manage-api-keys';
import { serviceChild, type ServiceChild } from './automation-child';

// `npm run test:chaos` runs the full 20k; the default run (npm test) a short form.
const RECIPIENTS = Number(process.env.CHAOS_CAMPAIGN_RECIPIENTS ?? 2000);

/**
 * The whole campaign path as real processes (gateway, campaigns, automation from their builds),
 * SIGKILLed together in the middle of a send and started again: every recipient gets the email,
 * none twice except with the same Message-ID (the SMTP acceptance window), and the REST counts
 * equal what the SMTP sink received.
 */
describe(`a campaign to ${RECIPIENTS} recipients survives the whole stack being SIGKILLed mid-send`, () => {
  let sink: SmtpSink;
  let children: ServiceChild[] = [];
  let automationDb: pg.Pool;
  let gatewayDb: pg.Pool;
  afterAll(async () => {
    for (const child of children) await child.stop();
    await automationDb?.end();
    await gatewayDb?.end();
    await sink?.close();
  });

  it('finishes with every recipient emailed once (or again with the same Message-ID) and counts equal to the sink', async () => {
    sink = await startSmtpSink();
    const logs = mkdtempSync(path.join(tmpdir(), 'campaign-crash-'));
    const [gatewayPort, campaignsPort, automationPort] = [await freePort(), await freePort(), await freePort()];
    const env = serviceTestEnv({
      DB_PREFIX: `${process.env.DB_PREFIX}camp${randomBytes(3).toString('hex')}_`,
      SMTP_URL: sink.url,
      SMTP_POOL_SIZE: '5',
      PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
      LOG_LEVEL: 'warn',
      // A claim of a killed instance is taken over after its lease: short here (production: 2 min).
      SEND_LEASE_MS: '3000',
      SEND_RATE_PER_SECOND: '100000',
      CAMPAIGN_RATE_PER_SECOND: '100000',
      CAMPAIGN_SEND_CONCURRENCY: '20',
      GATEWAY_PORT: String(gatewayPort),
      EVENTS_PORT: '0',
      CAMPAIGNS_SERVICE_URL: `http://127.0.0.1:${campaignsPort}`,
      AUTOMATION_SERVICE_URL: `http://127.0.0.1:${automationPort}`,
      // Not on the campaign path; the gateway only needs an address for it.
      CONTACTS_SERVICE_URL: 'http://127.0.0.1:9',
    });
    const automation = serviceChild('automation', env, automationPort, path.join(logs, 'automation.log'));
    const campaigns = serviceChild('campaigns', env, campaignsPort, path.join(logs, 'campaigns.log'));
    const gateway = serviceChild('gateway', env, gatewayPort, path.join(logs, 'gateway.log'));
    children = [automation, campaigns, gateway];
    await Promise.all(children.map((child) => child.start()));

    gatewayDb = new pg.Pool({ connectionString: gatewayDatabaseUrl(loadGatewayConfig(env)), max: 2 });
    automationDb = new pg.Pool({ connectionString: automationDatabaseUrl(loadAutomationConfig(env)), max: 2 });
    const account = await createAccount(gatewayDb, { name: 'Crash', plan: 'pro' });
    const { plaintext: key } = await createApiKey(gatewayDb, { accountId: account.id, name: 'crash', expiresOn: null });
    // The audience as the contacts facts would have left it in automation's projection (creating
    // 20k contacts through the API would be most of the test's time, and is covered elsewhere).
    await automationDb.query(
      `INSERT INTO contacts (account_id, contact_id, email, first_name, subscribed, bounced, fact_at)
       SELECT $1, n, 'r' || n || '@example.test', 'R' || n, true, false, now() FROM generate_series(1, $2::int) AS n`,
      [account.id, RECIPIENTS],
    );

    const internal = async (method: string, url: string, body?: unknown) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const response = await fetch(url, {
        method,
        headers: { [IDENTITY_HEADER]: signedIdentityFor(account.id, { method, url, body: payload }), ...(payload ? { 'content-type': 'application/json' } : {}) },
        body: payload,
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { data: { id: number } };
    };
    const base = `${campaigns.url}/internal/v1/campaigns`;
    const { data } = await internal('POST', base, { name: 'Crash test', title: 'Hello {{ first_name }}', html: '<p>Hi {{ first_name }}</p>' });
    await internal('POST', `${base}/${data.id}/approve`, {});
    await internal('POST', `${base}/${data.id}/send`, {});

    await sink.waitForMessages(Math.floor(RECIPIENTS / 3), 120_000);
    await Promise.all(children.map((child) => child.kill9()));
    const atKill = sink.messages.length;
    expect(atKill).toBeLessThan(RECIPIENTS);
    await Promise.all(children.map((child) => child.start()));

    const rest = async () => {
      const response = await fetch(`${gateway.url}/api/v1/campaigns/${data.id}`, { headers: { authorization: `Bearer ${key}` } });
      return response.ok ? ((await response.json()) as { data: Record<string, unknown> }).data : undefined;
    };
    const done = await waitFor(async () => {
      const view = await rest();
      return view?.status === 'sent' ? view : undefined;
    }, { timeoutMs: 240_000, intervalMs: 250, what: 'the campaign to be sent after the restart' });

    const byRecipient = new Map<string, Set<string>>();
    for (const message of sink.messages) {
      const to = message.to[0]!;
      const ids = byRecipient.get(to) ?? new Set<string>();
      ids.add(message.headers.get('message-id') ?? '');
      byRecipient.set(to, ids);
    }
    expect(byRecipient.size).toBe(RECIPIENTS);
    for (let n = 1; n <= RECIPIENTS; n++) expect(byRecipient.has(`r${n}@example.test`)).toBe(true);
    // A second copy only inside the SMTP acceptance window, and then with the same Message-ID.
    const withTwoIds = [...byRecipient.values()].filter((ids) => ids.size !== 1);
    expect(withTwoIds).toEqual([]);
    expect(sink.messages.length - RECIPIENTS).toBeLessThanOrEqual(20);
    expect(done).toMatchObject({ total_recipients: RECIPIENTS, emails_sent: byRecipient.size, emails_failed: 0 });
  }, 600_000);
});
