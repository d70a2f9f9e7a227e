import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser } from 'playwright-core';
import { createLogger } from '@mailer/shared';
import { createCampaign } from '../../services/campaigns/src/domain/sending/compose-campaign';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { APP_ROUTE_TABLE, type AppRouteRow } from './app-authorization-table';
import { aUserOf, phoneContext, productWithBrowser, signIn } from './support/app-browser';
import type { Product } from './stack-harness';

/** The authorization matrix for the account app's routes (the table in app-authorization-table.ts). */
describe('authorization matrix: the account app, every route aimed at another account\'s rows', () => {
  let product: Product;
  let browser: Browser;
  const run = randomBytes(4).toString('hex');
  const marker = `a-${run}`;
  let ids: Record<'workflow' | 'campaign' | 'contact' | 'step', string>;
  let accountA: number;

  productWithBrowser(
    { logger: (service) => createLogger(service, { level: 'silent' }), gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '1000000' } },
    (started, chromium) => {
      product = started;
      browser = chromium;
    },
  );
  beforeAll(async () => {
    const a = await product.anAccountWithKey();
    const contact = await product.api(a.key, 'POST', '/contacts', { email: `${marker}@example.test`, subscribed: true });
    const [workflow] = await importWorkflows(product.automation.workflowWrites, a.accountId, {
      name: `Flow ${marker}`,
      trigger: { event: 'signup' },
      steps: [{ id: 'hello', type: 'email', subject: `Hello ${marker}`, html: '<p>Hi</p>' }],
    });
    const campaign = await createCampaign(product.campaigns.pool, a.accountId, { name: `Launch ${marker}`, title: 'Private', html: '<p>Hi</p>' });
    ids = { workflow: String(workflow!.id), campaign: String(campaign.id), contact: String((contact.body!.data as { id: number }).id), step: 'hello' };
    accountA = a.accountId;
  });

  const pathOf = (row: AppRouteRow) => row.path.replace(/\{(workflow|campaign|contact|step)\}/g, (_all, name: keyof typeof ids) => ids[name]);

  /** A signed-in user's request context (cookies of the session) and the CSRF token of its forms. */
  async function sessionOf(accountId: number): Promise<{ request: APIRequestContext; csrf: string; close: () => Promise<void> }> {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, accountId));
    await page.waitForURL('**/app');
    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    return { request: context.request, csrf, close: () => context.close() };
  }

  it('a user of another account gets a 404 page from every route naming A\'s rows and no trace of them anywhere; A\'s own user reaches each', async () => {
    const b = await product.anAccountWithKey();
    const other = await sessionOf(b.accountId);
    const owner = await sessionOf(accountA);
    const mismatches: string[] = [];
    for (const row of APP_ROUTE_TABLE) {
      const path = pathOf(row);
      const label = `${row.method} ${path}`;
      const response =
        row.method === 'GET'
          ? await other.request.get(`${product.gateway.url}${path}`, { maxRedirects: 0 })
          : await other.request.post(`${product.gateway.url}${path}`, { form: { _csrf: other.csrf, to: 'x@example.test', name: 'x', title: 'x', html: 'x' }, maxRedirects: 0 });
      const body = await response.text();
      const expected = row.owns ? 404 : 200;
      if (response.status() !== expected) mismatches.push(`${label}: ${response.status()} (expected ${expected})`);
      if (body.includes(marker)) mismatches.push(`${label}: shows account A's row`);
      if (!(response.headers()['content-type'] ?? '').startsWith('text/html')) mismatches.push(`${label}: not an HTML page`);
      if (row.owns && row.method === 'GET') {
        const own = await owner.request.get(`${product.gateway.url}${path}`, { maxRedirects: 0 });
        if (own.status() !== 200) mismatches.push(`${label}: A's own user got ${own.status()}`);
      }
    }
    expect(mismatches).toEqual([]);
    // Nothing B posted changed A's rows: the workflow is still enabled, the campaign still a draft.
    const workflow = await product.automation.pool.query<{ enabled: boolean }>('SELECT enabled FROM workflows WHERE id = $1', [ids.workflow]);
    expect(workflow.rows[0]!.enabled).toBe(true);
    const campaign = await product.campaigns.pool.query<{ status: string; name: string }>('SELECT status, name FROM campaigns WHERE id = $1', [ids.campaign]);
    expect(campaign.rows[0]).toEqual({ status: 'draft', name: `Launch ${marker}` });
    await other.close();
    await owner.close();
  });

  it('no route of the table answers without a session: each sends the browser to sign in', async () => {
    for (const row of APP_ROUTE_TABLE) {
      const response = await fetch(`${product.gateway.url}${pathOf(row)}`, { method: row.method, redirect: 'manual' });
      expect([row.method, row.path, response.status, response.headers.get('location')]).toEqual([row.method, row.path, 303, expect.stringMatching(/^\/app\/sign-in/)]);
    }
  });
});
