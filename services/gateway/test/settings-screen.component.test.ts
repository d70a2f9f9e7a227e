import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { serviceTestEnv } from '@mailer/shared/testing';
import { runAdmin } from '../src/cli/admin';
import { createUser } from '../src/domain/create-user';
import { aKey, anAccount, utcDay } from './support/factories';
import { launchChromium, outputPath } from './support/browser';
import { startFakeUpstream } from './support/fake-upstream';
import { expectNoKeyInLogs, headersFor, issuedKeys, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

const PASSWORD = 'a long enough password';

describe('settings screen: API keys in the browser', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: Gateway;
  let browser: Browser;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ CONTACTS_SERVICE_URL: upstream.url });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stopGateways();
    await upstream.close();
    expectNoKeyInLogs();
  });

  async function aUser(plan: 'free' | 'pro' = 'pro') {
    const account = await anAccount(gateway.pool, plan);
    const email = `owner-${account.id}-${Date.now()}@example.test`;
    await createUser(gateway.pool, { accountId: account.id, email, password: PASSWORD });
    return { account, email };
  }

  async function signedInPage(email: string): Promise<Page> {
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': uniqueIp() } });
    // Fail with Playwright's own message well before jest's 30 s test timeout.
    context.setDefaultTimeout(8000);
    const page = await context.newPage();
    await page.goto(`${gateway.url}/settings`);
    expect(new URL(page.url()).pathname).toBe('/settings/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/settings/account');
    return page;
  }

  const callApi = (key: string) => fetch(`${gateway.url}/api/v1/contacts`, { headers: headersFor(key, uniqueIp()) });

  it('signs in, creates a key shown once, uses it, revokes it in the page, and the key then gets 401', async () => {
    const { account, email } = await aUser();
    const page = await signedInPage(email);
    expect(await page.getByRole('main').textContent()).toContain(account.name);
    expect(await page.getByRole('main').textContent()).toContain('Included');

    await page.getByRole('link', { name: 'API keys' }).first().click();
    await page.getByLabel('Name').fill('Production app');
    await page.getByLabel('Expiry date (optional)').fill(utcDay(30));
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL('**/settings/api-keys');
    expect(await page.getByRole('status').textContent()).toContain('It will not be shown again');
    const secret = (await page.locator('#new-key').textContent())!.trim();
    issuedKeys.push(secret);
    expect(secret).toMatch(/^mk_live_/);
    expect((await callApi(secret)).status).toBe(200);
    await page.screenshot({ path: await outputPath('settings-api-keys.png'), fullPage: true });

    await page.reload();
    expect(await page.content()).not.toContain(secret);
    await page.goto(`${gateway.url}/settings/api-keys`);
    expect(await page.content()).not.toContain(secret);

    const row = page.locator('tr', { hasText: 'Production app' });
    expect((await row.locator('.badge').textContent())?.trim()).toBe('Active');
    expect(await row.textContent()).toContain(utcDay(30));
    await row.getByRole('link', { name: /Revoke/ }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Revoke “Production app”?');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL('**/settings/api-keys');
    expect((await page.locator('tr', { hasText: 'Production app' }).locator('.badge').textContent())?.trim()).toBe('Revoked');
    expect((await callApi(secret)).status).toBe(401);
    expect(existsSync(await outputPath('settings-api-keys.png'))).toBe(true);
  });

  it('shows the Expired badge for a key the CLI created with yesterday as expiry', async () => {
    const { account, email } = await aUser();
    const code = await runAdmin(['keys', 'create', '--account', String(account.id), '--name', 'Old key', '--expires', utcDay(-1)], {
      env: serviceTestEnv(),
      stdout: (text) => void issuedKeys.push(...(text.match(/mk_live_\w+/g) ?? [])),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    const page = await signedInPage(email);
    await page.goto(`${gateway.url}/settings/api-keys`);
    expect((await page.locator('tr', { hasText: 'Old key' }).locator('.badge').textContent())?.trim()).toBe('Expired');
    expect(await page.content()).not.toMatch(/mk_live_\w{12}_\w{38}/);
  });

  it('refuses a form posted without the CSRF token, and an expiry date in the past', async () => {
    const { account, email } = await aUser();
    const page = await signedInPage(email);
    const refused = await page.request.post(`${gateway.url}/settings/api-keys`, { form: { name: 'sneaky' }, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    const forgedSignOut = await page.request.post(`${gateway.url}/settings/sign-out`, { form: { _csrf: 'wrong' }, maxRedirects: 0 });
    expect(forgedSignOut.status()).toBe(403);

    await page.goto(`${gateway.url}/settings/api-keys`);
    await page.getByLabel('Name').fill('Backdated');
    // The date input's min would stop a browser user; a crafted post must be refused by the server too.
    await page.locator('#key-expires').evaluate((input) => input.removeAttribute('min'));
    await page.getByLabel('Expiry date (optional)').fill(utcDay(-1));
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('must not be in the past');
    const listed = await gateway.pool.query('SELECT name FROM api_keys WHERE account_id = $1', [account.id]);
    expect(listed.rows).toEqual([]);
  });

  it("cannot revoke another account's key by changing the id", async () => {
    const { email } = await aUser();
    const other = await aKey(gateway.pool);
    const page = await signedInPage(email);
    await page.goto(`${gateway.url}/settings/api-keys`);
    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    const tampered = await page.request.post(`${gateway.url}/settings/api-keys/${other.record.id}/revoke`, {
      form: { _csrf: csrf },
      maxRedirects: 0,
    });
    expect(tampered.status()).toBe(404);
    expect((await page.goto(`${gateway.url}/settings/api-keys/${other.record.id}/revoke`))?.status()).toBe(404);
    expect((await callApi(other.plaintext)).status).toBe(200);
  });

  it('signs out (the old session cookie stops working) and limits failed sign-ins', async () => {
    const { email } = await aUser();
    const page = await signedInPage(email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/settings/sign-in');
    await page.goto(`${gateway.url}/settings/account`);
    expect(new URL(page.url()).pathname).toBe('/settings/sign-in');

    const throttled = await startGateway({ CONTACTS_SERVICE_URL: upstream.url, SIGNIN_FAIL_LIMIT: '3' });
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': uniqueIp() } });
    context.setDefaultTimeout(8000);
    const attempt = await context.newPage();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      await attempt.goto(`${throttled.url}/settings/sign-in`);
      await attempt.getByLabel('Email').fill(email);
      await attempt.getByLabel('Password').fill('wrong password!');
      const [response] = await Promise.all([
        attempt.waitForResponse((r) => r.request().method() === 'POST'),
        attempt.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      statuses.push(response.status());
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await attempt.getByRole('alert').textContent()).toContain('Too many failed attempts');
  });
});
