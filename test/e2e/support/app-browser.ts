import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshotPath, scrollsSideways } from '@mailer/testing/browser';
import { createUser } from '../../../services/gateway/src/domain/create-user';
import { startProduct, type Product, type ProductOptions } from '../stack-harness';

export const APP_PASSWORD = 'correct horse battery staple';

/** A user of `accountId` made the way the CLI makes one; resolves to its address. */
export async function aUserOf(product: Product, accountId: number): Promise<string> {
  const email = `app-${randomBytes(4).toString('hex')}@example.test`;
  await createUser(product.gateway.pool, { accountId, email, password: APP_PASSWORD });
  return email;
}

/** A phone-sized browser context (390 px wide) from an address of its own, so no two tests share a limit. */
export async function phoneContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Signs in through the gateway's /app/sign-in form, as a person would. */
export async function signIn(page: Page, baseUrl: string, email: string, password = APP_PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/app/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * The checks every page gets: it fits 390 px without sideways scrolling, every visible form field
 * has a label, and a screenshot is kept under test-output/web/.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: await screenshotPath('web', `${name}-390.png`), fullPage: true });
  expect([name, await scrollsSideways(page)]).toEqual([name, false]);
  // Every input, select and textarea a person can see has a <label> (or an aria-label).
  const unlabelled = await page.evaluate<string[]>(`[...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'hidden' && !el.hidden && !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
    .map((el) => el.name || el.id)`);
  expect([name, unlabelled]).toEqual([name, []]);
}

/**
 * A product and one Chromium for a file (or describe block) of app browser tests, started before
 * its tests and stopped after them; `ready` hands both to the block's own variables. `options` may
 * be a function for options known only at start (a free port).
 */
export function productWithBrowser(
  options: ProductOptions | (() => Promise<ProductOptions>),
  ready: (product: Product, browser: Browser) => void,
): void {
  let product: Product | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    product = await startProduct(typeof options === 'function' ? await options() : options);
    browser = await launchChromium();
    ready(product, browser);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });
}
