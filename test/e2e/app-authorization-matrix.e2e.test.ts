import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor, waitFor } from '@mailer/testing';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { aUserOf, phoneContext, signIn, productWithBrowser } from './support/app-browser';
import type { Product } from './stack-harness';

/** Account A's rows the app routes name: the matrix fills them into each path. */
interface Owned {
  contact: number;
  importJob: number;
  workflow: number;
  tag: string;
  marker: string;
}

/**
 * Every app route that names one of an account's rows, and what a signed-in user of another
 * account must get: a 404 page (the row is not theirs, so it does not exist for them) for a row,
 * and lists, figures and exports without any of A's rows. Forms are posted with B's own session
 * and CSRF token, so only the account scoping can refuse them.
 */
const ROW_PAGES = (a: Owned): string[] => [
  `/app/contacts/${a.contact}`,
  `/app/contacts/${a.contact}/edit`,
  `/app/contacts/${a.contact}/delete`,
  `/app/contacts/import/${a.importJob}`,
  `/app/contacts/import/${a.importJob}/progress`,
  `/app/contacts/import/${a.importJob}/failed.csv`,
  `/app/workflows/${a.workflow}`,
  `/app/workflows/${a.workflow}/export`,
];
const ROW_FORMS = (a: Owned): Array<[string, Record<string, string>]> => [
  [`/app/contacts/${a.contact}/edit`, { _action: 'save', email: `taken-${a.marker}@example.test`, first_name: 'Mallory' }],
  [`/app/contacts/${a.contact}/delete`, {}],
  [`/app/contacts/${a.contact}/unsubscribe`, {}],
  [`/app/contacts/${a.contact}/tags/remove`, { tag: a.tag }],
  [`/app/contacts/import/${a.importJob}/start`, {}],
];
const LISTS = (a: Owned): string[] => [
  '/app',
  `/app/contacts?q=${a.marker}`,
  `/app/contacts?tag=${a.tag}`,
  `/app/contacts/export?q=${a.marker}`,
  `/app/activity?contact=${a.contact}`,
  '/app/workflows',
];

describe('account app authorization matrix: a user of account A reaches nothing of account B', () => {
  let product: Product;
  let browser: Browser;
  const run = randomBytes(3).toString('hex');

  productWithBrowser({ gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '100000' }, webhooksEnv: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '100ms' } }, (started, chromium) => {
    product = started;
    browser = chromium;
  });

  async function userPage(accountId: number): Promise<Page> {
    const page = await (await phoneContext(browser)).newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, accountId));
    await page.waitForURL('**/app');
    return page;
  }

  it("pages, forms, the CSV export, the import and the activity of A's rows are 404 or empty for B, and change nothing", async () => {
    const a = await product.anAccountWithKey();
    const b = await product.anAccountWithKey();
    const marker = `owned-${run}`;
    const tag = `secret-${run}`;
    const created = await product.api(a.key, 'POST', '/contacts', { email: `${marker}@example.test`, first_name: 'Ada', subscribed: true, tags: [tag] });
    const contact = (created.body!.data as { id: number }).id;
    const [workflow] = await importWorkflows(product.automation.workflowWrites, a.accountId, {
      name: `Private ${run}`,
      trigger: { event: `private_${run}` },
      steps: [{ id: 's', type: 'email', subject: 'S', text: 't' }],
    }).then((result) => result.map((entry) => entry.id));

    // A uploads an import (left unstarted): B must neither see nor start it.
    const aPage = await userPage(a.accountId);
    await aPage.goto(`${product.gateway.url}/app/contacts/import`);
    await aPage.getByLabel('CSV file').setInputFiles({ name: 'a.csv', mimeType: 'text/csv', buffer: Buffer.from(`email\nimported-${marker}@example.test\n`) });
    await aPage.getByRole('button', { name: 'Upload and preview' }).click();
    await aPage.waitForURL(/\/app\/contacts\/import\/\d+$/);
    const importJob = Number(new URL(aPage.url()).pathname.split('/').pop());
    const owned: Owned = { contact, importJob, workflow: workflow!, tag, marker };

    const bPage = await userPage(b.accountId);
    await bPage.goto(`${product.gateway.url}/app/contacts/new`);
    const csrf = await bPage.locator('input[name=_csrf]').first().inputValue();
    for (const path of ROW_PAGES(owned)) {
      const response = await bPage.request.get(`${product.gateway.url}${path}`, { maxRedirects: 0 });
      expect([path, response.status(), response.headers()['content-type']]).toEqual([path, 404, expect.stringMatching(/^text\/html/)]);
      expect([path, await response.text()]).toEqual([path, expect.not.stringContaining(marker)]);
    }
    for (const [path, form] of ROW_FORMS(owned)) {
      const response = await bPage.request.post(`${product.gateway.url}${path}`, { form: { _csrf: csrf, ...form }, maxRedirects: 0 });
      expect([path, response.status()]).toEqual([path, 404]);
    }
    for (const path of LISTS(owned)) {
      const response = await bPage.request.get(`${product.gateway.url}${path}`, { maxRedirects: 0 });
      expect([path, response.status()]).toEqual([path, 200]);
      // The filter boxes echo what B typed; no row, tag badge or workflow of A's may appear.
      expect([path, await response.text()]).toEqual([path, expect.not.stringMatching(new RegExp(`${marker}@example\\.test|>${tag}<|Private ${run}`))]);
    }
    // B's dashboard counts none of A's contacts or workflows.
    await bPage.goto(`${product.gateway.url}/app`);
    expect(await bPage.locator('.stat .number').allInnerTexts()).toEqual(['0', '0', '0', '0', '0']);

    // Nothing of A's changed: the contact, its tag and subscription, the unstarted import.
    const after = await product.api(a.key, 'GET', `/contacts/${contact}`);
    expect(after.body!.data).toMatchObject({ email: `${marker}@example.test`, first_name: 'Ada', subscribed: true, tags: [tag] });
    await aPage.goto(`${product.gateway.url}/app/contacts/import/${importJob}`);
    expect(await aPage.getByRole('button', { name: 'Import 1 row' }).count()).toBe(1);
    expect((await product.api(a.key, 'GET', '/contacts')).body!.meta).toMatchObject({ total_count: 1 });
    await aPage.context().close();
    await bPage.context().close();
  });
  /** A call to a service's internal API as `accountId` (what the app does for a signed-in user). */
  async function internal(base: string, accountId: number, method: string, path: string, body?: unknown) {
    const url = `${base}/internal/v1${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, {
      method,
      headers: { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body: payload }), ...(payload ? { 'content-type': 'application/json' } : {}) },
      body: payload,
    });
    return (await response.json()) as { data: Record<string, unknown> & Array<Record<string, unknown>>; secret?: string };
  }

  it("Settings → Webhooks and Double opt-in (issue #22): A's endpoint, its deliveries and A's settings are 404 or untouched for B", async () => {
    const a = await product.anAccountWithKey();
    const b = await product.anAccountWithKey();
    const webhooksUrl = product.webhooks!.url;
    // Port 9 (discard) on loopback: nothing answers, so A's delivery fails and stays in A's log.
    const marker = `hook-${run}`;
    const endpoint = (await internal(webhooksUrl, a.accountId, 'POST', '/webhook-endpoints', { url: `http://127.0.0.1:9/${marker}`, event_types: ['contact.created'] })).data;
    await product.api(a.key, 'POST', '/contacts', { email: `${marker}@example.test`, first_name: 'Ada', subscribed: true });
    // Settled before the snapshot: retries used up, the endpoint failing (a resend by B would change both).
    const delivery = await waitFor(
      async () => (await internal(webhooksUrl, a.accountId, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`)).data.find((entry) => entry.state === 'failed'),
      { what: "A's failed delivery" },
    );
    const aBefore = { endpoint: (await internal(webhooksUrl, a.accountId, 'GET', `/webhook-endpoints/${endpoint.id}`)).data, formPath: (await internal(product.contacts.url, a.accountId, 'GET', '/subscribe-form')).data.path };

    expect(aBefore.endpoint.status).toBe('failing');
    const bPage = await userPage(b.accountId);
    await bPage.goto(`${product.gateway.url}/app/settings/webhooks`);
    const csrf = await bPage.locator('input[name=_csrf]').first().inputValue();
    const base = `/app/settings/webhooks/${endpoint.id}`;
    for (const path of [base, `${base}/delete`, `${base}?before=${delivery.id}`]) {
      const response = await bPage.request.get(`${product.gateway.url}${path}`, { maxRedirects: 0 });
      expect([path, response.status(), response.headers()['content-type']]).toEqual([path, 404, expect.stringMatching(/^text\/html/)]);
      expect([path, await response.text()]).toEqual([path, expect.not.stringContaining(marker)]);
    }
    const forms: Array<[string, Record<string, string>]> = [
      [base, { url: 'http://127.0.0.1:9/taken', event_types: 'contact.deleted' }],
      [`${base}/enable`, {}],
      [`${base}/disable`, {}],
      [`${base}/rotate-secret`, {}],
      [`${base}/deliveries/${delivery.id}/resend`, {}],
      [`${base}/delete`, {}],
    ];
    for (const [path, form] of forms) {
      const response = await bPage.request.post(`${product.gateway.url}${path}`, { form: { _csrf: csrf, ...form }, maxRedirects: 0 });
      expect([path, response.status()]).toEqual([path, 404]);
    }
    // B's lists and settings pages are B's own: none of A's endpoint, contact or form.
    for (const path of ['/app/settings/webhooks', '/app', `/app/settings/double-opt-in?contact=${marker}%40example.test`]) {
      const response = await bPage.request.get(`${product.gateway.url}${path}`, { maxRedirects: 0 });
      const text = await response.text();
      expect([path, response.status()]).toEqual([path, 200]);
      expect([path, text.includes(`127.0.0.1:9/${marker}`), text.includes(aBefore.formPath as string), text.includes('Ada')]).toEqual([path, false, false, false]);
    }
    // B's own switch and template change B's settings only.
    await bPage.request.post(`${product.gateway.url}/app/settings/double-opt-in/switch`, { form: { _csrf: csrf, enabled: 'true' }, maxRedirects: 0 });
    await bPage.request.post(`${product.gateway.url}/app/settings/double-opt-in/template`, { form: { _csrf: csrf, subject: `B ${marker}`, html: '<a href="{{ confirm_url }}">x</a>', text: '' }, maxRedirects: 0 });
    expect((await internal(product.contacts.url, b.accountId, 'GET', '/double-opt-in')).data).toEqual({ enabled: true });
    expect((await internal(product.contacts.url, a.accountId, 'GET', '/double-opt-in')).data).toEqual({ enabled: false });
    expect((await internal(product.automation.url, a.accountId, 'GET', '/confirmation-template')).data).toMatchObject({ default: true });

    // Nothing of A's changed: the endpoint (URL, types, enabled, no rotation) and the delivery.
    expect((await internal(webhooksUrl, a.accountId, 'GET', `/webhook-endpoints/${endpoint.id}`)).data).toEqual(aBefore.endpoint);
    const after = (await internal(webhooksUrl, a.accountId, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`)).data;
    expect(after.map((entry) => entry.id)).toEqual([delivery.id]);
    await bPage.context().close();
  });
});
