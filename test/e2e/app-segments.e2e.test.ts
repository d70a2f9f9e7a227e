import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createLogger } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { aUserOf, checkPage, phoneContext, productWithBrowser, signIn } from './support/app-browser';
import type { Product } from './stack-harness';

/**
 * Issue #51's segment journey in Chromium at 390 px on the real stack: a segment built condition by
 * condition with its live count following each change, saved, and a campaign sent to it reaching
 * exactly its subscribed members.
 */

const BROWSER_FLOW_TIMEOUT_MS = 120_000;

describe('account app: segments', () => {
  let product: Product;
  let browser: Browser;
  const run = randomBytes(3).toString('hex');

  productWithBrowser(
    {
      logger: (service) => createLogger(service, { level: (process.env.E2E_LOG as 'warn' | undefined) ?? 'silent' }),
      gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '1000000', RATE_LIMIT_KEY_PER_MIN: '1000000', RATE_LIMIT_KEY_PER_HOUR: '10000000' },
    },
    (started, chromium) => {
      product = started;
      browser = chromium;
    },
  );

  const sinkTo = (address: string) => product.smtp.messages.filter((message) => message.to.includes(address));
  /** The live count as the preview region shows it now, once it settles on `expected`. */
  const countBecomes = (page: Page, expected: string) =>
    waitFor(async () => ((await page.locator('[data-segment-count]').innerText().catch(() => '')) === expected ? true : undefined), {
      what: `the live count to read ${expected}`,
      timeoutMs: 10_000,
    });

  it(
    'builds a segment whose live count follows each added condition, saves it, and sends a campaign to exactly its subscribed members',
    async () => {
      const a = await product.anAccountWithKey();
      const vip = `vip-${run}`;
      const address = (name: string) => `${name}-${run}@example.test`;
      const people: Array<{ name: string; tags: string[]; plan: string; subscribed: boolean }> = [
        { name: 'ada', tags: [vip], plan: 'pro', subscribed: true },
        { name: 'bob', tags: [vip], plan: 'free', subscribed: true },
        { name: 'cat', tags: [], plan: 'pro', subscribed: true },
        { name: 'dan', tags: [vip], plan: 'pro', subscribed: false },
        { name: 'eve', tags: [vip], plan: 'pro', subscribed: true },
      ];
      for (const person of people) {
        const created = await product.api(a.key, 'POST', '/contacts', {
          email: address(person.name),
          first_name: person.name,
          tags: person.tags,
          custom_properties: { plan: person.plan },
          subscribed: person.subscribed,
        });
        expect([person.name, created.status]).toEqual([person.name, 201]);
      }

      const context = await phoneContext(browser);
      const page = await context.newPage();
      await signIn(page, product.gateway.url, await aUserOf(product, a.accountId));
      await page.waitForURL('**/app');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Segments' }).click();
      await page.waitForURL('**/app/segments');
      await checkPage(page, 'segments-empty');
      await page.getByRole('link', { name: 'New segment' }).click();
      await page.getByLabel('Name', { exact: true }).fill(`VIP pros ${run}`);
      await page.getByLabel('All of the conditions').check();

      // Each condition is added with the form's own button, then filled in: htmx recounts on change.
      await page.getByLabel('Add a condition').selectOption('tag');
      await page.getByRole('button', { name: 'Add condition' }).click();
      const first = page.getByRole('group', { name: /Condition 1/ });
      await first.getByLabel('Contact').selectOption('has');
      await first.getByLabel('Tag').fill(vip);
      await first.getByLabel('Tag').blur();
      await countBecomes(page, '4');
      await checkPage(page, 'segment-one-condition');

      await page.getByLabel('Add a condition').selectOption('property');
      await page.getByRole('button', { name: 'Add condition' }).click();
      const second = page.getByRole('group', { name: /Condition 2/ });
      await second.getByLabel('Property name').fill('plan');
      await second.getByLabel('Comparison').selectOption('eq');
      await second.getByLabel('Value').fill('pro');
      await second.getByLabel('Value').blur();
      await countBecomes(page, '3');

      await page.getByLabel('Add a condition').selectOption('subscribed');
      await page.getByRole('button', { name: 'Add condition' }).click();
      const third = page.getByRole('group', { name: /Condition 3/ });
      await third.getByLabel('Contact is').selectOption('false');
      await countBecomes(page, '1');
      await third.getByLabel('Contact is').selectOption('true');
      await countBecomes(page, '2');
      expect((await page.locator('#segment-preview .sample').innerText()).split('\n').sort()).toEqual([
        expect.stringContaining(address('ada')),
        expect.stringContaining(address('eve')),
      ]);
      await checkPage(page, 'segment-three-conditions');

      await page.getByRole('button', { name: 'Create segment' }).click();
      await page.waitForURL(/\/app\/segments\/\d+/);
      const segmentId = /segments\/(\d+)/.exec(page.url())![1]!;
      await page.goto(`${product.gateway.url}/app/segments`);
      expect(await page.locator('main').innerText()).toContain(`VIP pros ${run}`);
      await checkPage(page, 'segments-list');

      await page.goto(`${product.gateway.url}/app/campaigns/new`);
      await page.getByLabel('Name', { exact: true }).fill(`To the segment ${run}`);
      await page.getByLabel('Subject').fill('For {{ first_name }}');
      await page.getByLabel('HTML body').fill('<p>Hello {{ first_name }}</p>');
      await page.getByLabel('Segment').selectOption(segmentId);
      await page.getByRole('button', { name: 'Create draft' }).click();
      await page.waitForURL(/\/app\/campaigns\/\d+\?done=created/);
      expect(await page.locator('main').innerText()).toContain(`VIP pros ${run}`);
      expect(await page.locator('[data-audience-count]').innerText()).toBe('2');
      await checkPage(page, 'campaign-to-segment');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL('**done=approve');
      await page.getByRole('button', { name: 'Send now' }).click();
      await page.waitForURL('**done=send');
      await page.locator('#campaign-progress [data-status="sent"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('#campaign-progress [data-count="total"]').innerText()).toBe('2');
      // The Performance section follows the send without a reload.
      await page.locator('#performance').filter({ hasText: /Sent\s*2\b/ }).waitFor({ timeout: 15_000 });
      await checkPage(page, 'campaign-to-segment-sent');

      expect(Object.fromEntries(people.map((person) => [person.name, sinkTo(address(person.name)).length]))).toEqual({ ada: 1, bob: 0, cat: 0, dan: 0, eve: 1 });
      expect(sinkTo(address('ada'))[0]!.parsed.subject).toBe('For ada');
      await context.close();
    },
    BROWSER_FLOW_TIMEOUT_MS,
  );
});
