import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startDnsTestServer, testServers, waitFor, type DnsTestServer, rememberNamespace } from '@mailer/testing';
import { launchChromium, screenshotPath, scrollsSideways } from '@mailer/testing/browser';
import {
  freePorts,
  healthUrls,
  INBOX_PORT_VARIABLES,
  root,
  SERVICE_PORT_VARIABLES,
  startStackProcess,
  waitHealthy,
  type StackProcess,
} from './stack-process';

const run = promisify(execFile);

interface Quickstart {
  api_key: { key: string };
  urls: { api: string; inbox: string };
  try_it: string;
}

/** The environment a newcomer has: servers at hand, and no secret, no SMTP server, no DNS of their own. */
async function newcomerEnvironment(dns: DnsTestServer, stateDir: string): Promise<NodeJS.ProcessEnv> {
  const servers = testServers();
  const ports = await freePorts([...SERVICE_PORT_VARIABLES, ...INBOX_PORT_VARIABLES]);
  // Whatever the machine exports, a newcomer has set no secret, no SMTP server and no public address.
  const {
    INTERNAL_SIGNING_SECRET: _s,
    UNSUBSCRIBE_SECRET: _u,
    SMTP_URL: _m,
    PUBLIC_BASE_URL: _p,
    ...inherited
  } = process.env;
  return {
    ...inherited,
    ...ports,
    POSTGRES_URL: servers.postgresUrl,
    DB_PREFIX: `${servers.dbPrefix}first_hour_`,
    REDIS_URL: servers.redisUrl,
    REDIS_KEY_PREFIX: `${servers.redisKeyPrefix}first-hour:`,
    AMQP_URL: servers.amqpUrl,
    BROKER_NAMESPACE: rememberNamespace(`firsthour${randomBytes(4).toString('hex')}.`),
    // This machine has no internet: the address domains of the walk are answered by a local DNS server.
    DNS_SERVERS: dns.address,
    MAILER_STATE_DIR: stateDir,
    LOG_LEVEL: 'info',
  };
}

const everyListener = (env: NodeJS.ProcessEnv) =>
  healthUrls(env as Record<string, string>, [...SERVICE_PORT_VARIABLES, ...INBOX_PORT_VARIABLES]);

async function page(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/html/);
  return response.text();
}

/** The inbox as a person on a phone sees it: the list, then the message, no sideways scrolling. */
async function lookAtTheInbox(inboxUrl: string, messagePath: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(inboxUrl);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: await screenshotPath('local-inbox', 'inbox-390.png'), fullPage: true });
    await page.getByRole('link', { name: 'Welcome aboard, Ada!' }).click();
    await page.waitForURL(`**${messagePath}`);
    await expect(page.getByRole('heading', { name: 'Headers' }).isVisible()).resolves.toBe(true);
    expect(
      await page
        .frameLocator('iframe[title="HTML part"]')
        .getByRole('heading', { name: 'Welcome, Ada!' })
        .textContent(),
    ).toBe('Welcome, Ada!');
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: await screenshotPath('local-inbox', 'message-390.png'), fullPage: true });
  } finally {
    await browser.close();
  }
}

describe('the first hour, as the README tells a newcomer', () => {
  let dns: DnsTestServer;
  let stateDir: string;
  let stack: StackProcess | undefined;

  beforeAll(async () => {
    dns = await startDnsTestServer({ 'example.com': { mx: ['mail.example.com'], a: ['127.0.0.1'] } });
    stateDir = mkdtempSync(path.join(tmpdir(), 'mailer-first-hour-'));
  });

  afterAll(async () => {
    await stack?.stop();
    await dns.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('npm start with no secret and no SMTP, quickstart, the printed event, the email in the local inbox, its unsubscribe link after a restart', async () => {
    const env = await newcomerEnvironment(dns, stateDir);
    stack = startStackProcess(env);
    await waitHealthy(everyListener(env), 45_000, stack);
    // The secrets were generated once, kept private, and their place was said.
    const secretsFile = path.join(stateDir, 'secrets.json');
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(stack.output()).toContain(secretsFile);
    expect(stack.output()).toMatch(/inbox +http:\/\/localhost:\d+\//);

    // Without an address of their own the newcomer is told why one is needed, and nothing is made.
    const refused = await run(process.execPath, [path.join(root, 'scripts', 'admin.mjs'), 'quickstart'], { env }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toMatch(/quickstart needs --email: your own address/);

    const { stdout } = await run(
      process.execPath,
      [path.join(root, 'scripts', 'admin.mjs'), 'quickstart', '--email', 'owner@example.com', '--first-name', 'Ada'],
      { env },
    );
    const quickstart = JSON.parse(stdout) as Quickstart;
    expect(quickstart.try_it).toMatch(/^curl /);

    // The printed line, run as printed.
    const fired = await run('sh', ['-c', `${quickstart.try_it} -w '\\n%{http_code}'`], { env });
    expect(fired.stdout.trim().split('\n').pop()).toBe('202');

    // The welcome email, found the way a person finds it: on the inbox page, then its own page.
    const inboxUrl = quickstart.urls.inbox.replace('localhost', '127.0.0.1');
    const messagePath = await waitFor(
      async () => /href="(\/messages\/[0-9a-f-]+)">Welcome aboard, Ada!</.exec(await page(inboxUrl))?.[1],
      { timeoutMs: 15_000, intervalMs: 250, what: 'the welcome email in the local inbox' },
    );
    const message = await page(new URL(messagePath, inboxUrl).toString());
    expect(message).toContain('owner@example.com');
    const unsubscribeUrl = /<a href="(http[^"]+\/unsubscribe\/[^"]+)">/
      .exec(message)?.[1]
      ?.replace(/&amp;/g, '&');
    expect(unsubscribeUrl).toBeDefined();
    expect(stack.output()).toMatch(/"msg":"email sent"/);
    await lookAtTheInbox(inboxUrl, messagePath);

    // A restart keeps the secrets, so the link still works.
    expect(await stack.stop()).toBe(0);
    stack = startStackProcess(env);
    await waitHealthy(everyListener(env), 45_000, stack);
    expect(stack.output()).not.toContain('generated now');

    const link = unsubscribeUrl!.replace('localhost', '127.0.0.1');
    expect(await page(link)).toMatch(/unsubscribe/i);
    const confirmed = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'confirm=1',
    });
    expect(confirmed.status).toBe(200);

    const api = quickstart.urls.api.replace('localhost', '127.0.0.1');
    const contact = await waitFor(
      async () => {
        const response = await fetch(`${api}/contacts?q=owner%40example.com`, {
          headers: { authorization: `Bearer ${quickstart.api_key.key}` },
        });
        const body = (await response.json()) as { data: Array<{ email: string; subscribed: boolean }> };
        return body.data.find((candidate) => candidate.email === 'owner@example.com' && !candidate.subscribed);
      },
      { timeoutMs: 10_000, intervalMs: 250, what: 'the contact unsubscribed over the REST API' },
    );
    expect(contact.subscribed).toBe(false);
  }, 150_000);
});
