import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { aUserOf, checkPage, phoneContext, signIn, productWithBrowser } from './support/app-browser';
import type { Product } from './stack-harness';

describe('account app: contacts list, search, tag filter and contact page; one account sees nothing of another', () => {
  let product: Product;
  let browser: Browser;
  const run = randomBytes(3).toString('hex');

  productWithBrowser({ gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '100000' } }, (started, chromium) => {
    product = started;
    browser = chromium;
  });

  it('finds a contact by search and by tag, opens its page; a user of another account gets a 404 page for it and an empty list', async () => {
    const a = await product.anAccountWithKey();
    const b = await product.anAccountWithKey();
    const marker = `ada-${run}`;
    const created = await product.api(a.key, 'POST', '/contacts', {
      email: `${marker}@example.test`,
      first_name: 'Ada',
      tags: [`vip-${run}`],
      custom_properties: { plan: 'pro' },
    });
    expect(created.status).toBe(201);
    const id = (created.body!.data as { id: number }).id;
    expect((await product.api(a.key, 'POST', '/contacts', { email: `grace-${run}@example.test` })).status).toBe(201);

    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, a.accountId));
    await page.waitForURL('**/app');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await page.waitForURL('**/app/contacts');
    await checkPage(page, 'contacts');
    await page.getByLabel('Search by email').fill(marker);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(`**/app/contacts?q=${marker}**`);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Search by email').fill('');
    await page.getByLabel('Tag').fill(`vip-${run}`);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(`**tag=vip-${run}**`);
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining(marker)]);
    await checkPage(page, 'contacts-filtered');
    await page.getByRole('link', { name: `${marker}@example.test` }).click();
    await page.waitForURL(`**/app/contacts/${id}`);
    expect(await page.locator('dl').first().textContent()).toMatch(/Ada/);
    await checkPage(page, 'contact');
    await context.close();

    // Account B's user: A's contact is not there, by id or by search; no page of B's shows A's row.
    const other = await phoneContext(browser);
    const bPage = await other.newPage();
    await signIn(bPage, product.gateway.url, await aUserOf(product, b.accountId));
    await bPage.waitForURL('**/app');
    for (const path of [`/app/contacts/${id}`, `/app/contacts?q=${marker}`, `/app/contacts?tag=vip-${run}`, '/app', '/app/settings/api-keys', '/app/settings/account']) {
      const response = await bPage.goto(`${product.gateway.url}${path}`);
      expect([path, response?.headers()['content-type']]).toEqual([path, expect.stringMatching(/^text\/html/)]);
      // The page's text (a search box may echo what B typed; the rows must not hold A's contact).
      expect([path, await bPage.locator('main').innerText()]).toEqual([path, expect.not.stringContaining(marker)]);
      if (path === `/app/contacts/${id}`) expect(response?.status()).toBe(404);
    }
    await other.close();
  });

  it('no app page answers without a session, and no internal route answers through the public listener', async () => {
    for (const path of ['/app', '/app/contacts', '/app/contacts/1', '/app/settings', '/app/settings/account', '/app/settings/api-keys', '/app/settings/password']) {
      const response = await fetch(`${product.gateway.url}${path}`, { redirect: 'manual' });
      expect([path, response.status]).toEqual([path, 303]);
      expect(response.headers.get('location')).toMatch(/^\/app\/sign-in/);
    }
    for (const path of ['/internal/v1/users/verify', '/internal/v1/api-keys', '/app/../internal/v1/account', '/internal/v1/campaigns']) {
      const response = await fetch(`${product.gateway.url}${path}`, { method: 'POST', redirect: 'manual' });
      expect([path, response.status]).toEqual([path, 404]);
    }
  });
});
