import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { createLogger, IDENTITY_HEADER, signTrackingToken, trackingUrl } from '@mailer/shared';
import { signedIdentityFor, waitFor } from '@mailer/testing';
import { startWebhookReceiver, type WebhookReceiver } from '../../services/webhooks/test/support/webhook-receiver';
import { runAdminCli } from '../stack/admin-cli';
import { aUserOf, checkPage, phoneContext, productWithBrowser, signIn } from './support/app-browser';
import { campaignDriver, createContacts } from './support/campaign-driver';
import type { Product } from './stack-harness';

/**
 * Issue #51's tracking on the real stack: a campaign with two links to three contacts, its links
 * followed and its pixel loaded as a mail client would (through the gateway's /t/*, answered by the
 * events service, counted by campaigns from the broker), the counts on the campaign's page, in
 * `campaigns report` and in a webhook; forged, altered and re-signed tokens counting nothing; and an
 * account with tracking off getting its links untouched.
 */

const FLOW_TIMEOUT_MS = 120_000;
/** Hits within this many seconds of the send count as a link scanner's (the events service's rule). */
const SCANNER_WINDOW_MS = 10_000;
const LINK_A = 'https://example.org/a';
const LINK_B = 'https://example.org/b?from=news';
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

type Report = {
  opened_unique: number;
  clicked_unique: number;
  clicked_total: number;
  machine_clicks: number;
  delivered: number;
  links: Array<{ url: string; unique_clicks: number; total_clicks: number }>;
};
type WebhookBody = { type: string; account_id: number; data: Record<string, unknown> };

describe('tracking opens and clicks (issue #51)', () => {
  let product: Product;
  let browser: Browser;
  let receiver: WebhookReceiver;
  const run = randomBytes(3).toString('hex');

  productWithBrowser(
    async () => {
      receiver = await startWebhookReceiver();
      return {
        logger: (service) => createLogger(service, { level: (process.env.E2E_LOG as 'warn' | undefined) ?? 'silent' }),
        webhooksEnv: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_MS: '50' },
      };
    },
    (started, chromium) => {
      product = started;
      browser = chromium;
    },
  );
  afterAll(async () => receiver?.close());

  const sinkTo = (address: string) => product.smtp.messages.filter((message) => message.to.includes(address));
  const htmlTo = async (address: string) => {
    const [message] = await waitFor(() => (sinkTo(address).length > 0 ? sinkTo(address) : undefined), { what: `the email to ${address}` });
    return String(message!.parsed.html);
  };
  const tracked = (html: string, kind: 'c' | 'o') => [...html.matchAll(new RegExp(`${product.env.PUBLIC_BASE_URL}/t/${kind}/[A-Za-z0-9_-]+`, 'g'))].map((m) => m[0]);
  const hit = (url: string, userAgent = BROWSER_UA) => fetch(url, { redirect: 'manual', headers: { 'user-agent': userAgent } });

  async function webhookEndpoint(accountId: number, eventTypes: string[]) {
    const url = `${product.webhooks!.url}/internal/v1/webhook-endpoints`;
    const body = JSON.stringify({ url: receiver.url, event_types: eventTypes });
    const response = await fetch(url, {
      method: 'POST',
      headers: { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method: 'POST', url, body }), 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(201);
  }

  async function sentCampaign(driver: ReturnType<typeof campaignDriver>, tag: string, html: string) {
    const id = await driver.create({ name: `Tracked ${run} ${tag}`, title: 'Our news', html, audience_tags: [tag], audience_match: 'any' });
    await driver.act(id, 'approve');
    await driver.act(id, 'send');
    await driver.watchUntil(id, (view) => view.status === 'sent');
    return id;
  }

  it(
    'counts a reader’s pixel and clicks once each, a scanner’s click apart, on the campaign page, in campaigns report and in webhooks; bad tokens get 404 and count nothing',
    async () => {
      const account = await product.anAccountWithKey();
      const driver = campaignDriver(product, account);
      expect((await driver.automation('PUT', '/tracking-settings', { link_tracking: true, open_tracking: true })).status).toBe(200);
      await webhookEndpoint(account.accountId, ['email.opened', 'email.clicked']);
      const tag = `tracked-${run}`;
      const [ada, bob, cyd] = ['ada', 'bob', 'cyd'].map((name) => `${name}-${run}@example.test`) as [string, string, string];
      await createContacts(product, account.key, account.accountId, [ada, bob, cyd].map((email) => ({ email, tags: [tag], subscribed: true })));

      const campaignId = await sentCampaign(
        driver,
        tag,
        `<html><body><p>News.</p><p><a href="${LINK_A}">First</a> and <a href="${LINK_B}">second</a>.</p></body></html>`,
      );
      const sentAt = Date.now();
      const [adaHtml, bobHtml, cydHtml] = await Promise.all([htmlTo(ada), htmlTo(bob), htmlTo(cyd)]);
      for (const html of [adaHtml, bobHtml, cydHtml]) {
        // Both links wrapped, in order, one pixel; the addresses and the contact never in clear.
        expect(tracked(html, 'c')).toHaveLength(2);
        expect(tracked(html, 'o')).toHaveLength(1);
        expect(html).not.toContain(`href="${LINK_A}"`);
        expect(html).not.toMatch(/example\.test/);
      }
      // The unsubscribe link and header stay as they are.
      const [adaMessage] = sinkTo(ada);
      expect(String(adaMessage!.headers.get('list-unsubscribe'))).toMatch(/\/unsubscribe\//);
      expect(String(adaMessage!.headers.get('list-unsubscribe'))).not.toMatch(/\/t\//);

      // A link scanner fetches cyd's first link as the email lands: followed, counted apart.
      const [cydA] = tracked(cydHtml, 'c');
      const scanned = await hit(cydA!);
      expect([scanned.status, scanned.headers.get('location')]).toEqual([302, LINK_A]);

      // Readers come later: ada loads the pixel and follows the first link twice, bob only the second link.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + SCANNER_WINDOW_MS + 1000 - Date.now())));
      const [adaA] = tracked(adaHtml, 'c');
      const [adaPixel] = tracked(adaHtml, 'o');
      const pixel = await hit(adaPixel!);
      expect([pixel.status, pixel.headers.get('content-type')]).toEqual([200, 'image/gif']);
      expect(Buffer.from(await pixel.arrayBuffer()).subarray(0, 6).toString('latin1')).toBe('GIF89a');
      for (let i = 0; i < 2; i += 1) {
        const click = await hit(adaA!);
        expect([click.status, click.headers.get('location')]).toEqual([302, LINK_A]);
      }
      const bobB = tracked(bobHtml, 'c')[1]!;
      const bobClick = await hit(bobB);
      expect([bobClick.status, bobClick.headers.get('location')]).toEqual([302, LINK_B]);

      const report = async () => (await driver.campaigns('GET', `/campaigns/${campaignId}/report`)).body?.data as Report;
      const counted = await waitFor(async () => {
        const now = await report();
        return now.clicked_total === 3 && now.opened_unique === 2 && now.machine_clicks === 1 ? now : undefined;
      }, { what: 'the hits counted by campaigns', timeoutMs: 15_000 });
      expect(counted).toMatchObject({ delivered: 3, opened_unique: 2, clicked_unique: 2, clicked_total: 3, machine_clicks: 1 });
      expect(counted.links).toEqual([
        { url: LINK_A, unique_clicks: 1, total_clicks: 2 },
        { url: LINK_B, unique_clicks: 1, total_clicks: 1 },
      ]);

      // Nothing else is ever a redirect: a forged token, an altered one, one signed with another key
      // for another address, and a query string naming another URL.
      const base = `${product.env.PUBLIC_BASE_URL}/t`;
      const token = adaA!.split('/').at(-1)!;
      const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
      const resigned = signTrackingToken(
        { kind: 'click', url: 'https://evil.example/', link: 0, email: { accountId: account.accountId, contactId: 1, campaignId, sentAt: Math.floor(sentAt / 1000) - 3600 } },
        'not-the-tracking-secret',
      );
      for (const url of [`${base}/c/${randomBytes(48).toString('base64url')}`, `${base}/c/${flipped}`, trackingUrl(product.env.PUBLIC_BASE_URL!, 'click', resigned), `${base}/c/${token.slice(0, -4)}`, `${base}/o/${token}`]) {
        const refused = await hit(url);
        expect([url, refused.status, refused.headers.get('location'), refused.headers.get('content-type')]).toEqual([url, 404, null, expect.stringMatching(/^text\/html/)]);
      }
      const withQuery = await hit(`${adaA!}?url=https://evil.example/`);
      expect([withQuery.status, withQuery.headers.get('location')]).toEqual([302, LINK_A]);

      // The webhooks: one per hit, the machine's marked.
      const bodies = () => receiver.received.map((request) => JSON.parse(request.body) as WebhookBody).filter((body) => body.account_id === account.accountId);
      const clicks = await waitFor(() => {
        const found = bodies().filter((body) => body.type === 'email.clicked');
        return found.length === 5 ? found : undefined;
      }, { what: 'five email.clicked webhooks', timeoutMs: 15_000 });
      expect(clicks.filter((body) => body.data.machine === true)).toHaveLength(1);
      expect(clicks.map((body) => body.data.url).sort()).toEqual([LINK_A, LINK_A, LINK_A, LINK_A, LINK_B]);
      expect(clicks[0]!.data).toMatchObject({ campaign_id: campaignId, workflow_id: null });
      await waitFor(() => (bodies().some((body) => body.type === 'email.opened') ? true : undefined), { what: 'the email.opened webhook' });

      // The second click of ada counted after the bad tokens: nothing of theirs was counted.
      const after = await report();
      expect([after.clicked_total, after.machine_clicks, after.opened_unique]).toEqual([4, 1, 2]);

      // The campaign's page in the app.
      const context = await phoneContext(browser);
      const page = await context.newPage();
      await signIn(page, product.gateway.url, await aUserOf(product, account.accountId));
      await page.waitForURL('**/app');
      await page.goto(`${product.gateway.url}/app/campaigns/${campaignId}`);
      const performance = await page.locator('#performance').innerText();
      expect(performance).toMatch(/Opened\s*2/);
      expect(performance).toMatch(/Clicked\s*2/);
      const linkRows = await page.locator('#performance table', { hasText: 'Unique clicks' }).locator('tbody tr').allInnerTexts();
      expect(linkRows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([expect.stringMatching(/example\.org\/a.*1.*3/), expect.stringMatching(/example\.org\/b.*1.*1/)]);
      await checkPage(page, 'campaign-performance');
      await context.close();

      // The operator's report.
      const cli = await runAdminCli(['campaigns', 'report', '--id', String(campaignId)], { ...product.env, PATH: process.env.PATH, HOME: process.env.HOME });
      expect([cli.code, cli.stderr]).toEqual([0, '']);
      expect(cli.stdout).toContain(LINK_A);
      expect(cli.stdout).toMatch(/clicked\D+2/i);
      const csv = await runAdminCli(['campaigns', 'report', '--id', String(campaignId), '--format', 'csv'], { ...product.env, PATH: process.env.PATH, HOME: process.env.HOME });
      expect(csv.code).toBe(0);
      expect(csv.stdout.split('\n')).toEqual(expect.arrayContaining([expect.stringContaining(`${LINK_A},1,3`)]));
    },
    FLOW_TIMEOUT_MS,
  );

  it('leaves every link and the pixel out for an account that turns tracking off', async () => {
    const account = await product.anAccountWithKey();
    const driver = campaignDriver(product, account);
    expect((await driver.automation('PUT', '/tracking-settings', { link_tracking: false, open_tracking: false })).status).toBe(200);
    const tag = `untracked-${run}`;
    const reader = `plain-${run}@example.test`;
    await createContacts(product, account.key, account.accountId, [{ email: reader, tags: [tag], subscribed: true }]);
    await sentCampaign(driver, tag, `<html><body><p><a href="${LINK_A}">First</a> <a href="${LINK_B}">second</a></p></body></html>`);
    const html = await htmlTo(reader);
    expect(html).toContain(`href="${LINK_A}"`);
    expect(html).toContain(`href="${LINK_B.replace('&', '&amp;')}"`);
    expect(html).not.toMatch(/\/t\/[co]\//);
  }, FLOW_TIMEOUT_MS);
});
