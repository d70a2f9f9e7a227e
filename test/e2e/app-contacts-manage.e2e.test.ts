import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@mailer/testing';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { aUserOf, checkPage, phoneContext, signIn, productWithBrowser } from './support/app-browser';
import type { Product } from './stack-harness';

/**
 * Issue #20, contacts part 2, in Chromium at 390 px on the whole stack: create and edit a contact
 * (the service's reasons next to the field), remove a tag, unsubscribe, delete after a confirmation,
 * a contact's activity after a workflow email, a CSV import with good and bad rows (preview,
 * progress, report), the CSV export of a filter, and the dashboard's figures.
 */
describe('account app: managing contacts, CSV import and export, dashboard', () => {
  let product: Product;
  let browser: Browser;
  const run = randomBytes(3).toString('hex');

  productWithBrowser({ gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '100000' } }, (started, chromium) => {
    product = started;
    browser = chromium;
  });

  async function signedInPage(accountId: number): Promise<Page> {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, accountId));
    await page.waitForURL('**/app');
    return page;
  }

  it('creates a contact (refusals next to the field), edits fields, tags and properties, removes a tag, unsubscribes and deletes after a confirmation', async () => {
    const a = await product.anAccountWithKey();
    const page = await signedInPage(a.accountId);
    await page.goto(`${product.gateway.url}/app/contacts`);
    await page.getByRole('link', { name: 'Add a contact' }).click();
    await page.waitForURL('**/app/contacts/new');
    await page.getByLabel('Email', { exact: true }).fill('not an address');
    await page.getByLabel('First name').fill('Lin');
    await page.getByRole('button', { name: 'Add contact' }).click();
    expect(await page.locator('#contact-email-error').textContent()).toBe('email is invalid');
    expect(await page.getByLabel('First name').inputValue()).toBe('Lin');
    await checkPage(page, 'contact-form-errors');

    const email = `lin-${run}@example.test`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Tags').fill(`alpha-${run}, beta-${run}`);
    await page.getByLabel('Property 1 name').fill('plan');
    await page.getByLabel('Property 1 value').fill('pro');
    await page.getByRole('button', { name: 'Add a property row' }).click();
    await page.getByLabel('Property 2 name').fill('seats');
    await page.getByLabel('Property 2 value').fill('5');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.waitForURL(/\/app\/contacts\/\d+\?done=created$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await page.getByRole('status').first().textContent()).toMatch(/Contact added/);
    await checkPage(page, 'contact-created');
    const stored = await product.api(a.key, 'GET', `/contacts/${id}`);
    expect(stored.body!.data).toMatchObject({ email, first_name: 'Lin', subscribed: true, tags: [`alpha-${run}`, `beta-${run}`], custom_properties: { plan: 'pro', seats: '5' } });

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Last name').fill('Park');
    await page.getByLabel('Tags').fill(`alpha-${run}, gamma-${run}`);
    await page.locator('#property-remove-1').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/app/contacts/${id}?done=saved`);
    const edited = (await product.api(a.key, 'GET', `/contacts/${id}`)).body!.data;
    expect(edited).toMatchObject({ last_name: 'Park', tags: [`alpha-${run}`, `gamma-${run}`], custom_properties: { plan: 'pro' } });

    await page.getByRole('button', { name: `Remove tag gamma-${run}` }).click();
    await page.waitForURL(`**/app/contacts/${id}?done=untagged`);
    expect(((await product.api(a.key, 'GET', `/contacts/${id}`)).body!.data as { tags: string[] }).tags).toEqual([`alpha-${run}`]);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.waitForURL(`**/app/contacts/${id}?done=unsubscribed`);
    expect(((await product.api(a.key, 'GET', `/contacts/${id}`)).body!.data as { subscribed: boolean }).subscribed).toBe(false);
    await page.getByRole('link', { name: 'Delete' }).click();
    await page.waitForURL(`**/app/contacts/${id}/delete`);
    await checkPage(page, 'contact-delete-confirm');
    expect((await product.api(a.key, 'GET', `/contacts/${id}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete contact' }).click();
    await page.waitForURL('**/app/contacts');
    expect((await product.api(a.key, 'GET', `/contacts/${id}`)).status).toBe(404);
    await page.context().close();
  });

  it("opens a contact's activity: the workflow run and the email sent, with its outcome; the dashboard counts it", async () => {
    const a = await product.anAccountWithKey();
    const event = `joined_${run}`;
    await importWorkflows(product.automation.workflowWrites, a.accountId, {
      name: 'Welcome',
      trigger: { event },
      steps: [{ id: 'hello', type: 'email', subject: 'Hello', text: 'Hi' }],
    });
    const email = `ada-${run}@example.test`;
    expect((await product.sendEvent(a.key, { event, email })).status).toBe(202);
    await waitFor(() => product.smtp.messagesTo(email).length > 0 || undefined, { timeoutMs: 15_000 });
    const listed = await product.api(a.key, 'GET', `/contacts?q=${encodeURIComponent(email)}`);
    const id = (listed.body!.data as Array<{ id: number }>)[0]!.id;

    const page = await signedInPage(a.accountId);
    await page.goto(`${product.gateway.url}/app/contacts?q=ada-${run}`);
    await page.getByRole('link', { name: email }).click();
    await page.waitForURL(`**/app/contacts/${id}`);
    await waitFor(async () => {
      await page.reload();
      return (await page.locator('#activity').innerText()).includes('Sent') || undefined;
    }, { timeoutMs: 10_000 });
    expect(await page.locator('#runs').innerText()).toMatch(new RegExp(`Welcome, started by the event ${event}`));
    expect(await page.locator('#activity tbody').innerText()).toMatch(/Welcome · step hello[\s\S]*Sent/);
    await checkPage(page, 'contact-activity');

    await page.goto(`${product.gateway.url}/app`);
    expect(await page.locator('.stat').allInnerTexts()).toEqual([
      expect.stringMatching(/^1\s*contacts in total/),
      expect.stringMatching(/^1\s*subscribed/),
      expect.stringMatching(/^1\s*new in the last 7 days/),
      expect.stringMatching(/^1\s*workflows active/),
      expect.stringMatching(/^0\s*campaigns in flight/),
    ]);
    expect(await page.locator('svg desc').textContent()).toMatch(/^1 sent, 0 failed, 0 not sent/);
    await checkPage(page, 'dashboard');
    await page.context().close();
  });

  it('imports a CSV with good and bad rows: preview with per-row errors, progress, report with each failed row and its reason; exports the filter as CSV', async () => {
    const a = await product.anAccountWithKey();
    const known = `known-${run}@example.test`;
    expect((await product.api(a.key, 'POST', '/contacts', { email: known, first_name: 'Old' })).status).toBe(201);
    const csv = [
      'email,first_name,last_name,subscribed,tags,plan',
      `new1-${run}@example.test,Ann,Lee,true,csv-${run};vip,gold`,
      `${known},Renamed,,,csv-${run},`,
      'not-an-address,Bad,,,,',
      `new2-${run}@example.test,,,maybe,,`,
      `new3-${run}@example.test,Cy,,no,csv-${run},silver`,
    ].join('\n');

    const page = await signedInPage(a.accountId);
    await page.goto(`${product.gateway.url}/app/contacts`);
    await page.getByRole('link', { name: 'Import a CSV file' }).click();
    await page.waitForURL('**/app/contacts/import');
    await checkPage(page, 'contacts-import-upload');
    await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload and preview' }).click();
    await page.waitForURL(/\/app\/contacts\/import\/\d+$/);
    const preview = await page.locator('tbody tr').allInnerTexts();
    expect(preview).toEqual([
      expect.stringMatching(/new1-.*New contact/s),
      expect.stringMatching(/known-.*Updates a contact/s),
      expect.stringMatching(/not-an-address.*Will fail.*email is invalid/s),
      expect.stringMatching(/new2-.*Will fail.*subscribed must be true or false/s),
      expect.stringMatching(/new3-.*New contact/s),
    ]);
    await checkPage(page, 'contacts-import-preview');
    expect((await product.api(a.key, 'GET', '/contacts')).body!.meta).toMatchObject({ total_count: 1 });

    await page.getByRole('button', { name: 'Import 5 rows' }).click();
    await page.getByText('Import finished.').waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Failed rows' }).waitFor();
    expect(await page.locator('#import-progress').innerText()).toMatch(/5 of 5 rows: 2 created,\s*1 updated,\s*2 failed/);
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^4\s+not-an-address\s+email is invalid/),
      expect.stringMatching(/^5\s+new2-.*subscribed must be true or false/s),
    ]);
    await checkPage(page, 'contacts-import-report');
    const listed = await product.api(a.key, 'GET', `/contacts?tag=csv-${run}`);
    // Rows of one batch are written side by side, so their ids (the list's order) need not follow the file's.
    const byEmail = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect((listed.body!.data as Array<{ email: string; first_name: string; subscribed: boolean; custom_properties: Record<string, string> }>).map((c) => [c.email, c.first_name, c.subscribed, c.custom_properties.plan]).sort(byEmail)).toEqual(
      [
        [`new3-${run}@example.test`, 'Cy', false, 'silver'],
        [`new1-${run}@example.test`, 'Ann', true, 'gold'],
        [known, 'Renamed', false, undefined],
      ].sort(byEmail),
    );

    // The export of a filter: the import's columns, only the filtered contacts, through the session.
    const exported = await page.request.get(`${product.gateway.url}/app/contacts/export?tag=vip`);
    expect(exported.status()).toBe(200);
    expect(exported.headers()['content-type']).toMatch(/^text\/csv/);
    expect((await exported.text()).trim().split('\n')).toEqual(['email,first_name,last_name,subscribed,tags,plan', `new1-${run}@example.test,Ann,Lee,true,csv-${run};vip,gold`]);
    await page.context().close();
  });

  it('refuses a file without an email column, and one that is not CSV, on the upload page', async () => {
    const a = await product.anAccountWithKey();
    const page = await signedInPage(a.accountId);
    for (const [body, reason] of [
      ['name,plan\nAnn,gold\n', /must be “email”/],
      ['email\n"unclosed@example.test\n', /not valid CSV/],
    ] as const) {
      await page.goto(`${product.gateway.url}/app/contacts/import`);
      await page.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(body) });
      await page.getByRole('button', { name: 'Upload and preview' }).click();
      expect(await page.getByRole('alert').textContent()).toMatch(reason);
    }
    expect((await product.api(a.key, 'GET', '/contacts')).body!.meta).toMatchObject({ total_count: 0 });
    await page.context().close();
  });
});
