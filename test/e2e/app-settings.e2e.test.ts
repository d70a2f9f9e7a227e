import type { Browser } from 'playwright-core';
import { APP_PASSWORD, aUserOf, checkPage, phoneContext, signIn, productWithBrowser } from './support/app-browser';
import type { Product } from './stack-harness';

describe('account app: sign-in, settings and API keys in the browser (through the gateway)', () => {
  let product: Product;
  let browser: Browser;

  productWithBrowser({ gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '100000' } }, (started, chromium) => {
    product = started;
    browser = chromium;
  });

  it('a signed-out visitor is sent to sign in; the old /settings address leads into the app', async () => {
    const app = await fetch(`${product.gateway.url}/app/contacts`, { redirect: 'manual' });
    expect(app.status).toBe(303);
    expect(app.headers.get('location')).toBe('/app/sign-in?next=%2Fapp%2Fcontacts');
    const old = await fetch(`${product.gateway.url}/settings/api-keys`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe('/app/settings/api-keys');
  });

  it('signs in, creates a key shown once, uses it, revokes it, and the key then gets 401', async () => {
    const { accountId } = await product.anAccountWithKey();
    const email = await aUserOf(product, accountId);
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(`${product.gateway.url}/app/sign-in`);
    await checkPage(page, 'sign-in');
    await signIn(page, product.gateway.url, email);
    await page.waitForURL('**/app');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    await checkPage(page, 'dashboard');
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'mk_app_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/app' });

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/app/settings/account');
    await checkPage(page, 'settings-account');
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name').fill('Browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const plaintext = (await page.locator('#new-key').textContent())!;
    expect(plaintext).toMatch(/^mk_live_/);
    await checkPage(page, 'settings-api-keys-created');
    const use = () => fetch(`${product.gateway.url}/api/v1/contacts`, { headers: { authorization: `Bearer ${plaintext}` } });
    expect((await use()).status).toBe(200);
    // Shown once: a reload does not show it again.
    await page.reload();
    expect(await page.locator('#new-key').count()).toBe(0);
    await page.getByRole('link', { name: 'Revoke key Browser key' }).click();
    await checkPage(page, 'settings-revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL('**/app/settings/api-keys');
    expect(await page.locator('tr', { hasText: 'Browser key' }).locator('.badge').textContent()).toBe('Revoked');
    expect((await use()).status).toBe(401);
    await context.close();
  });

  it('changes the password (other sessions end), refuses a wrong current one, signs out', async () => {
    const { accountId } = await product.anAccountWithKey();
    const email = await aUserOf(product, accountId);
    const other = await phoneContext(browser);
    const otherPage = await other.newPage();
    await signIn(otherPage, product.gateway.url, email);
    await otherPage.waitForURL('**/app');

    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, email);
    await page.waitForURL('**/app');
    await page.goto(`${product.gateway.url}/app/settings/password`);
    await checkPage(page, 'settings-password');
    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/current password: is not correct/);
    await page.getByLabel('Current password').fill(APP_PASSWORD);
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL('**/app/settings/password?changed=1');
    // This session goes on; the other one is over.
    await page.goto(`${product.gateway.url}/app`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    await otherPage.goto(`${product.gateway.url}/app`);
    await otherPage.waitForURL('**/app/sign-in**');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/app/sign-in');
    await page.goto(`${product.gateway.url}/app`);
    await page.waitForURL('**/app/sign-in**');
    await signIn(page, product.gateway.url, email, 'a brand new password');
    await page.waitForURL('**/app');
    await other.close();
    await context.close();
  });

  it('refuses a form without its CSRF token, and error pages are HTML in the layout', async () => {
    const { accountId } = await product.anAccountWithKey();
    const email = await aUserOf(product, accountId);
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, email);
    await page.waitForURL('**/app');
    const forged = await page.request.post(`${product.gateway.url}/app/settings/api-keys`, { form: { name: 'forged' }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toMatch(/Form refused/);
    const missing = await page.goto(`${product.gateway.url}/app/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(missing?.headers()['content-type']).toMatch(/^text\/html/);
    await checkPage(page, 'not-found');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual([
      'Dashboard', 'Contacts', 'Segments', 'Campaigns', 'Workflows', 'Activity', 'Settings',
    ]);
    await context.close();
  });
});
