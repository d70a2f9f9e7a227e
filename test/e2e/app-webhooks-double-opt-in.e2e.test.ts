import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@mailer/testing';
import { startWebhookReceiver, type WebhookReceiver } from '../../services/webhooks/test/support/webhook-receiver';
import { aUserOf, checkPage, phoneContext, productWithBrowser, signIn } from './support/app-browser';
import type { Product } from './stack-harness';

/** Settings → Webhooks and Settings → Double opt-in in the browser, on the real stack (issue #22). */
describe('account app: webhooks and double opt-in in the browser (issue #22)', () => {
  let product: Product;
  let browser: Browser;
  let receiver: WebhookReceiver;

  productWithBrowser(
    {
      gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '100000' },
      // The receiver listens on 127.0.0.1: this stack's operator allows that one address (any other
      // private address is still refused). Retries in milliseconds, so "failing" comes in a second.
      webhooksEnv: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '100ms,200ms', WEBHOOK_POLL_MS: '50' },
    },
    (started, chromium) => {
      product = started;
      browser = chromium;
    },
  );
  // Declared after the product's hooks, so it is closed after the product has stopped.
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  async function signedInPage(accountId: number): Promise<Page> {
    const page = await (await phoneContext(browser)).newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, accountId));
    await page.waitForURL('**/app');
    return page;
  }

  /** Reloads until `check` holds (deliveries and retries happen in the background). */
  async function reloadUntil(page: Page, what: string, check: () => Promise<boolean>) {
    await waitFor(
      async () => {
        await page.reload();
        return (await check()) ? true : undefined;
      },
      { what, timeoutMs: 20_000 },
    );
  }

  it('registers an endpoint (refusals by the field), sees signed deliveries in the log, a failing endpoint announced, resend, rotate, disable, delete', async () => {
    const account = await product.anAccountWithKey();
    const page = await signedInPage(account.accountId);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/app/settings/webhooks');
    await checkPage(page, 'settings-webhooks-empty');

    // No event type chosen: said next to the checkboxes. A private address: said next to the URL.
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.locator('#endpoint-events-error').textContent()).toContain('event type');
    await page.getByLabel('Endpoint URL').fill('http://192.168.10.20/hooks');
    await page.getByLabel('contact.created').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.locator('#endpoint-url-error').textContent()).toMatch(/refused/);
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'settings-webhooks-refused');

    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('Browser receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.waitForURL(/\/app\/settings\/webhooks\/\d+$/);
    const secret = (await page.locator('#new-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await checkPage(page, 'settings-webhook-created');
    // Shown once.
    await page.reload();
    expect(await page.locator('#new-secret').count()).toBe(0);

    // A contact through the API: the receiver gets contact.created, signed with the shown secret.
    const email = `hooked${account.accountId}@example.test`;
    expect((await product.api(account.key, 'POST', '/contacts', { email, subscribed: true })).status).toBe(201);
    const mine = () => receiver.received.filter((request) => request.body.includes(`"account_id":${account.accountId}`));
    const first = await waitFor(() => mine()[0], { what: 'the first webhook' });
    expect(new Webhook(secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({ type: 'contact.created', data: { contact: { email } } });
    await reloadUntil(page, 'the delivery in the log', async () => (await page.locator('[data-event-type="contact.created"] [data-attempt-status]').count()) > 0);
    const row = page.locator('[data-event-type="contact.created"]').first();
    expect(await row.locator('[data-attempt-status]').textContent()).toBe('HTTP 200');
    expect(await row.locator('[data-latency]').textContent()).toMatch(/^\d+ ms$/);
    expect(await row.textContent()).toContain('succeeded');
    await checkPage(page, 'settings-webhook-log');

    // The receiver fails: retries run out, the endpoint is failing, and the dashboard says so.
    receiver.answer = () => 500;
    const failedEmail = `second${account.accountId}@example.test`;
    expect((await product.api(account.key, 'POST', '/contacts', { email: failedEmail, subscribed: true })).status).toBe(201);
    await reloadUntil(page, 'the failing endpoint', async () => (await page.locator('[data-endpoint-status="failing"]').count()) === 1);
    expect(await page.getByRole('alert').textContent()).toContain('A webhook endpoint is failing.');
    const failedRow = page.locator('tr', { hasText: 'failed' }).first();
    expect(await failedRow.locator('[data-attempt-status]').textContent()).toBe('HTTP 500');
    expect(await failedRow.textContent()).toContain('3 attempts');
    expect(await failedRow.locator('pre').textContent()).toBe('answered 500');
    await checkPage(page, 'settings-webhook-failing');
    const endpointUrl = page.url();
    await page.goto(`${product.gateway.url}/app`);
    const dashboardNotice = page.locator('[data-webhooks-failing]');
    expect(await dashboardNotice.textContent()).toContain(receiver.url);
    await checkPage(page, 'dashboard-webhook-failing');
    await page.goto(`${product.gateway.url}/app/settings/webhooks`);
    expect(await page.locator('.badge.failed').textContent()).toBe('Failing');

    // The receiver is back: resend the failed delivery; it arrives with the same webhook-id and the endpoint recovers.
    receiver.answer = () => 200;
    await page.goto(endpointUrl);
    const failedId = (await page.locator('tr', { hasText: 'failed' }).first().getAttribute('data-delivery-id'))!;
    const webhookId = mine().find((request) => request.body.includes(failedEmail))!.headers['webhook-id'];
    const before = mine().length;
    await page.getByRole('button', { name: `Resend contact.created delivery ${failedId}` }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('Queued again');
    const resent = await waitFor(() => mine().slice(before).find((request) => request.headers['webhook-id'] === webhookId), { what: 'the resent delivery' });
    expect(resent.body).toContain(failedEmail);
    await reloadUntil(page, 'the endpoint active again', async () => (await page.locator('[data-endpoint-status="active"]').count()) === 1);
    expect(await page.locator(`[data-delivery-id="${failedId}"]`).textContent()).toContain('succeeded');

    // Rotate: a new secret shown once, the overlap explained; the next delivery verifies with both.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.locator('#new-secret').textContent())!;
    expect(rotated).not.toBe(secret);
    expect(await page.locator('.notice').first().textContent()).toContain('signed with both the old and the new secret');
    await checkPage(page, 'settings-webhook-rotated');
    const third = `third${account.accountId}@example.test`;
    await product.api(account.key, 'POST', '/contacts', { email: third, subscribed: true });
    const signedTwice = await waitFor(() => mine().find((request) => request.body.includes(third)), { what: 'a delivery after the rotation' });
    for (const key of [secret, rotated]) expect(new Webhook(key).verify(signedTwice.body, signedTwice.headers as Record<string, string>)).toMatchObject({ type: 'contact.created' });

    // Disable, then delete after a confirmation.
    await page.getByRole('button', { name: 'Disable' }).click();
    expect(await page.locator('[data-endpoint-status]').getAttribute('data-endpoint-status')).toBe('disabled');
    await page.getByRole('link', { name: 'Delete' }).click();
    await checkPage(page, 'settings-webhook-delete');
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL('**/app/settings/webhooks');
    expect(await page.getByText('No endpoints yet').count()).toBe(1);
    await page.context().close();
  }, 90_000);

  it('turns double opt-in on, edits the confirmation email (problems by the field, a preview), and the edited email reaches a new contact', async () => {
    const account = await product.anAccountWithKey();
    const page = await signedInPage(account.accountId);
    await page.goto(`${product.gateway.url}/app/settings/double-opt-in`);
    expect(await page.locator('[data-double-opt-in]').textContent()).toBe('Off');
    await checkPage(page, 'settings-double-opt-in');
    await page.getByRole('button', { name: 'Turn double opt-in on' }).click();
    expect(await page.locator('[data-double-opt-in]').textContent()).toBe('On');

    // A template that does not parse, and one without the confirm link: each said by its field.
    await page.getByLabel('Subject').fill('Confirm {{ first_name');
    await page.getByRole('button', { name: 'Save email' }).click();
    expect(await page.locator('#confirmation-subject-error').count()).toBe(1);
    await page.getByLabel('Subject').fill('Please confirm, {{ first_name | default: "friend" }}');
    await page.getByLabel('HTML', { exact: true }).fill('<p>Hi {{ first_name }}, no link here</p>');
    await page.getByRole('button', { name: 'Save email' }).click();
    expect(await page.locator('#confirmation-html-error').textContent()).toContain('confirm_url');
    await checkPage(page, 'settings-double-opt-in-errors');
    await page.getByLabel('HTML', { exact: true }).fill('<p>Hi {{ first_name }}, <a href="{{ confirm_url }}">confirm your address</a></p>');
    await page.getByLabel('Text part (optional)').fill('Hi {{ first_name }}, confirm here: {{ confirm_url }}');
    await page.getByRole('button', { name: 'Save email' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('Saved');

    // The preview: the saved email for a sample contact (unknown here: the fallback applies).
    await page.getByLabel('Preview for contact').fill('someone@example.test');
    await page.getByRole('button', { name: 'Show preview' }).click();
    expect(await page.locator('.email-preview').textContent()).toContain('Please confirm, friend');
    expect(await page.locator('.email-text').first().textContent()).toContain('/confirm/sample');
    await checkPage(page, 'settings-double-opt-in-preview');

    // The hosted form's address and the snippet that posts to it.
    const formUrl = (await page.locator('[data-subscribe-form]').getAttribute('href'))!;
    expect(formUrl).toMatch(new RegExp(`^${product.gateway.url}/subscribe/`));
    expect(await page.locator('#subscribe-snippet').textContent()).toContain(`action="${formUrl}"`);
    expect((await fetch(formUrl)).status).toBe(200);

    // A contact an event creates is pending and gets the edited email.
    const email = `pia${account.accountId}@example.test`;
    expect((await product.sendEvent(account.key, { event: 'signup', email, properties: { first_name: 'Pia' } })).status).toBe(202);
    const [confirmation] = await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? product.smtp.messagesTo(email) : undefined), { what: 'the confirmation email', timeoutMs: 15_000 });
    expect(confirmation!.parsed.subject).toBe('Please confirm, Pia');
    expect(confirmation!.parsed.text).toMatch(/^Hi Pia, confirm here: http:\/\/127\.0\.0\.1:\d+\/confirm\/v1\./);
    expect(confirmation!.parsed.html).toContain('confirm your address');
    await page.context().close();
  }, 90_000);
});
