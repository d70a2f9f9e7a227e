import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createLogger } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { aUserOf, checkPage, phoneContext, productWithBrowser, signIn } from './support/app-browser';
import type { Product } from './stack-harness';

/**
 * The account app's Workflows, Activity and Campaigns sections in Chromium at 390 px, on the real
 * stack (issue #20's workflow journey, issue #19's campaign journey), and what another account's
 * user reaches of them: nothing.
 */

/** A whole flow in a real browser: about 25 s alone on a slow two-core machine, more in the full run. */
const BROWSER_FLOW_TIMEOUT_MS = 90_000;
describe('account app: workflows, activity and campaigns', () => {
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
  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();

  /** Another account's user: every page of A's rows is a 404 page, and no list of theirs shows A's. */
  async function anotherAccountSeesNothing(paths: string[], marker: string, actions: string[]) {
    const b = await product.anAccountWithKey();
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, b.accountId));
    await page.waitForURL('**/app');
    for (const path of paths) {
      const response = await page.goto(`${product.gateway.url}${path}`);
      expect([path, response?.status(), response?.headers()['content-type']]).toEqual([path, 404, expect.stringMatching(/^text\/html/)]);
    }
    for (const path of ['/app/workflows', '/app/campaigns', '/app/activity']) {
      await page.goto(`${product.gateway.url}${path}`);
      expect([path, await page.locator('main').innerText()]).toEqual([path, expect.not.stringContaining(marker)]);
    }
    // State-changing forms posted with B's own session and token against A's ids: 404, nothing changes.
    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    for (const path of actions) {
      const response = await page.request.post(`${product.gateway.url}${path}`, { form: { _csrf: csrf, to: 'x@example.test' }, maxRedirects: 0 });
      expect([path, response.status()]).toEqual([path, 404]);
    }
    await context.close();
  }

  it('creates a workflow in the form (problems next to their fields), previews and test-sends a step, fires its event over REST and sees the email in the activity, disables it, exports and imports the file', async () => {
    const a = await product.anAccountWithKey();
    const event = `app-signup-${run}`;
    const ada = `ada-${run}@example.test`;
    expect((await product.api(a.key, 'POST', '/contacts', { email: ada, first_name: 'Ada', subscribed: true })).status).toBe(201);

    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, a.accountId));
    await page.waitForURL('**/app');
    await nav(page, 'Workflows');
    await page.waitForURL('**/app/workflows');
    await checkPage(page, 'workflows-empty');
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByLabel('Name', { exact: true }).fill(`Welcome ${run}`);
    await page.getByLabel('Trigger event').fill(event);
    const first = page.getByRole('group', { name: 'Step 1' });
    await first.getByLabel('Subject (email steps)').fill('Welcome, {{ first_name | default: "friend" }}');
    await first.getByLabel('HTML body').fill('<p>Hello {{ first_name }}, glad you are here.</p>');
    const second = page.getByRole('group', { name: 'Step 2' });
    await second.getByLabel('Kind').selectOption('wait');
    await second.getByLabel('Wait for (wait steps)').fill('3 days');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    // Refused: the message sits next to the wait field, and what was typed is still there.
    await page.locator('#step-1-duration-error').waitFor();
    expect(await page.locator('#step-1-duration-error').innerText()).toMatch(/number and a unit/);
    expect(await page.locator('#step-1-duration').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Trigger event').inputValue()).toBe(event);
    await checkPage(page, 'workflow-form-errors');
    await page.getByRole('group', { name: 'Step 2' }).getByLabel('Wait for (wait steps)').fill('3d');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.waitForURL(/\/app\/workflows\/\d+\?done=created/);
    const workflowId = /workflows\/(\d+)/.exec(page.url())![1]!;
    expect(await page.getByRole('status').innerText()).toMatch(/Workflow created/);
    await checkPage(page, 'workflow-edit');

    // Preview the email for Ada, then send a test.
    await page.getByRole('link', { name: 'Preview or test this email' }).first().click();
    await page.getByLabel('Contact email').fill(ada);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL('**/steps/step-1?contact=*');
    expect(await page.locator('.email-preview').innerText()).toMatch(/Welcome, Ada/);
    expect(await page.frameLocator('iframe[title="Email preview"]').locator('body').innerText()).toContain('Hello Ada, glad you are here.');
    await checkPage(page, 'workflow-step-preview');
    const tester = `tester-${run}@example.test`;
    await page.getByLabel('Send to').fill(tester);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.waitForURL('**done=test-sent**');
    const [test] = await waitFor(() => (sinkTo(tester).length > 0 ? sinkTo(tester) : undefined), { timeoutMs: 10_000 });
    expect(test!.parsed.subject).toBe('[Test] Welcome, friend');

    // The event over REST: Ada gets the email, and the activity says so.
    expect((await product.sendEvent(a.key, { event, email: ada })).status).toBe(202);
    const [welcome] = await waitFor(() => (sinkTo(ada).length > 0 ? sinkTo(ada) : undefined), { timeoutMs: 15_000 });
    expect(welcome!.parsed.subject).toBe('Welcome, Ada');
    await nav(page, 'Activity');
    await page.getByLabel('Contact email').fill(ada);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL('**/app/activity?email=**');
    const rows = page.locator('table.activity tbody tr');
    await waitFor(
      async () => {
        if ((await rows.allInnerTexts()).some((text) => /Sent/.test(text))) return true;
        await page.reload();
        return undefined;
      },
      { timeoutMs: 10_000, intervalMs: 500, what: 'the sent email in the activity' },
    );
    const texts = await rows.allInnerTexts();
    expect(texts.join('\n')).toContain(`Welcome ${run}`);
    expect(texts.some((text) => /Sent/.test(text) && /Accepted by the mail server/.test(text))).toBe(true);
    expect(texts.some((text) => /Entered the workflow/.test(text))).toBe(true);
    await checkPage(page, 'activity');
    // And on the contact's own page, the way a person looks someone up.
    await nav(page, 'Contacts');
    await page.goto(`${product.gateway.url}/app/contacts?q=${encodeURIComponent(ada)}`);
    await page.getByRole('link', { name: ada }).click();
    await page.waitForURL('**/app/contacts/*');
    expect(await page.locator('#activity tbody').innerText()).toMatch(new RegExp(`Welcome ${run}[\\s\\S]*Sent`));

    // Disabled: the list says so, and a new contact's event enrols no one.
    await nav(page, 'Workflows');
    await page.getByRole('button', { name: `Disable Welcome ${run}` }).click();
    await page.waitForURL('**/app/workflows?done=disabled');
    expect(await page.locator(`tr[data-workflow-id="${workflowId}"]`).innerText()).toMatch(/Disabled/);
    await checkPage(page, 'workflows-list');
    const grace = `grace-${run}@example.test`;
    expect((await product.sendEvent(a.key, { event, email: grace })).status).toBe(202);
    // Ada's email arrived within a second or two of her event; three seconds is well past that.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(sinkTo(grace)).toHaveLength(0);

    // Export the file, import it under another name: two workflows.
    const exported = await page.request.get(`${product.gateway.url}/app/workflows/${workflowId}/export`);
    expect(exported.headers()['content-disposition']).toMatch(/attachment/);
    const document = (await exported.json()) as { name: string; trigger: { event: string } };
    expect(document).toMatchObject({ name: `Welcome ${run}`, trigger: { event } });
    const file = join(tmpdir(), `workflow-${run}.json`);
    await writeFile(file, JSON.stringify({ ...document, name: `Imported ${run}` }));
    await page.getByLabel('Workflow file (.json)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.waitForURL('**/app/workflows?done=imported');
    expect(await page.locator('tbody tr').count()).toBe(2);
    await writeFile(file, JSON.stringify({ name: '', steps: [] }));
    await page.getByLabel('Workflow file (.json)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    expect(await page.getByRole('alert').innerText()).toMatch(/Nothing was imported/);
    await checkPage(page, 'workflows-import-refused');
    await context.close();

    await anotherAccountSeesNothing(
      [`/app/workflows/${workflowId}`, `/app/workflows/${workflowId}/export`, `/app/workflows/${workflowId}/steps/step-1`],
      `Welcome ${run}`,
      [`/app/workflows/${workflowId}/enable`, `/app/workflows/${workflowId}/disable`, `/app/workflows/${workflowId}`, `/app/workflows/${workflowId}/steps/step-1/test`],
    );
  }, BROWSER_FLOW_TIMEOUT_MS);

  it('composes, previews, test-sends, approves and sends a campaign, watches its progress reach sent, and opens the per-recipient outcomes (issue #19)', async () => {
    const a = await product.anAccountWithKey();
    const tag = `news-${run}`;
    const recipients = ['one', 'two', 'three'].map((name) => `${name}-${run}@example.test`);
    for (const [index, email] of recipients.entries()) {
      expect((await product.api(a.key, 'POST', '/contacts', { email, first_name: `Reader${index}`, tags: [tag], subscribed: true })).status).toBe(201);
    }
    expect((await product.api(a.key, 'POST', '/contacts', { email: `untagged-${run}@example.test`, subscribed: true })).status).toBe(201);

    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(page, product.gateway.url, await aUserOf(product, a.accountId));
    await page.waitForURL('**/app');
    await nav(page, 'Campaigns');
    await page.waitForURL('**/app/campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('button', { name: 'Create draft' }).click();
    expect(await page.locator('#c-name-error').innerText()).not.toBe('');
    await checkPage(page, 'campaign-form-errors');
    await page.getByLabel('Name', { exact: true }).fill(`Launch ${run}`);
    await page.getByLabel('Subject').fill('News for {{ first_name | default: "you" }}');
    await page.getByLabel('Preview text').fill('What is new this month');
    await page.getByLabel('HTML body').fill('<html><body><p>Hi {{ first_name }}, here is the news.</p></body></html>');
    await page.getByLabel('Tags (comma separated)').fill(tag);
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/app\/campaigns\/\d+\?done=created/);
    const campaignId = /campaigns\/(\d+)/.exec(page.url())![1]!;
    await waitFor(async () => ((await page.locator('[data-audience-count]').innerText()) === '3' ? true : (await page.reload(), undefined)), { timeoutMs: 10_000 });
    await checkPage(page, 'campaign-draft');

    await page.getByRole('link', { name: 'Preview for a contact' }).click();
    await page.getByLabel('Sample contact email').fill(recipients[0]!);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL('**/preview?contact=*');
    expect(await page.locator('.email-preview').innerText()).toMatch(/News for Reader0/);
    // The email as a mail client shows it: its own styles apply, so the preheader is hidden.
    const frame = page.frameLocator('iframe[title="Email preview"]').locator('body');
    expect(await frame.innerText()).toContain('Hi Reader0, here is the news.');
    expect(await frame.innerText()).not.toContain('What is new this month');
    expect(await frame.innerHTML()).toContain('What is new this month');
    await checkPage(page, 'campaign-preview');
    await page.goto(`${product.gateway.url}/app/campaigns/${campaignId}`);

    const tester = `campaign-tester-${run}@example.test`;
    await page.getByLabel('Send to').fill(tester);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.waitForURL('**done=test-sent');
    const [test] = await waitFor(() => (sinkTo(tester).length > 0 ? sinkTo(tester) : undefined), { timeoutMs: 10_000 });
    expect(test!.parsed.subject).toBe('[Test] News for you');

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**done=approve');
    await checkPage(page, 'campaign-approved');
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.waitForURL('**done=send');
    // No reload: htmx polls the progress section until the service says sent.
    await page.locator('#campaign-progress [data-status="sent"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('#campaign-progress [data-count="sent"]').innerText()).toBe('3');
    expect(await page.locator('#campaign-progress [data-count="total"]').innerText()).toBe('3');
    // The actions came with the live part: nothing to pause or cancel once sent.
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    await checkPage(page, 'campaign-sent');
    expect(recipients.map((email) => sinkTo(email).length)).toEqual([1, 1, 1]);
    expect(sinkTo(`untagged-${run}@example.test`)).toHaveLength(0);

    await page.getByRole('link', { name: 'Per-recipient outcomes' }).click();
    await page.getByLabel('Outcome').selectOption('sent');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL('**/recipients?outcome=sent');
    const rows = await page.locator('table.recipients tbody tr').allInnerTexts();
    expect(rows).toHaveLength(3);
    expect(rows.join('\n')).toContain(recipients[1]);
    await checkPage(page, 'campaign-recipients');
    await nav(page, 'Campaigns');
    expect(await page.locator(`tr[data-campaign-id="${campaignId}"]`).innerText()).toMatch(/Sent/);
    await checkPage(page, 'campaigns-list');
    await page.goto(`${product.gateway.url}/app/settings/sending`);
    await page.getByLabel('Campaign emails per second').fill('fast');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.locator('#sending-rate-error').innerText()).toMatch(/whole number/);
    await page.getByLabel('Campaign emails per second').fill('50');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/app/settings/sending?saved=1');
    expect(await page.getByLabel('Campaign emails per second').inputValue()).toBe('50');
    await checkPage(page, 'settings-sending');

    // At 2 emails a second: pause stops the send, resume finishes it.
    await page.getByLabel('Campaign emails per second').fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/app/settings/sending?saved=1');
    const slow = `slow-${run}`;
    const slowRecipients = Array.from({ length: 8 }, (_, index) => `slow${index}-${run}@example.test`);
    for (const email of slowRecipients) expect((await product.api(a.key, 'POST', '/contacts', { email, tags: [slow], subscribed: true })).status).toBe(201);
    const compose = async (name: string, tags: string) => {
      await page.goto(`${product.gateway.url}/app/campaigns/new`);
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Subject').fill(name);
      await page.getByLabel('HTML body').fill('<p>Hello</p>');
      await page.getByLabel('Tags (comma separated)').fill(tags);
      await page.getByRole('button', { name: 'Create draft' }).click();
      await page.waitForURL(/\/app\/campaigns\/\d+\?done=created/);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL('**done=approve');
    };
    const slowSent = () => slowRecipients.reduce((sum, email) => sum + sinkTo(email).length, 0);
    await waitFor(async () => {
      const { rows } = await product.automation.pool.query<{ count: number }>("SELECT count(*)::int AS count FROM contacts WHERE account_id = $1 AND tags ? $2", [a.accountId, slow]);
      return rows[0]!.count === slowRecipients.length ? true : undefined;
    }, { timeoutMs: 10_000, what: 'the slow audience in the projection' });
    await compose(`Slow ${run}`, slow);
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.waitForURL('**done=send');
    await waitFor(() => (slowSent() >= 1 ? true : undefined), { timeoutMs: 10_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL('**done=pause');
    expect(await page.locator('#campaign-progress').innerText()).toMatch(/Paused/);
    await checkPage(page, 'campaign-paused');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const whilePaused = slowSent();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(slowSent()).toBe(whilePaused);
    expect(whilePaused).toBeLessThan(slowRecipients.length);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL('**done=resume');
    await page.locator('#campaign-progress [data-status="sent"]').waitFor({ timeout: 20_000 });
    expect(slowRecipients.map((email) => sinkTo(email).length)).toEqual(slowRecipients.map(() => 1));

    // Scheduled for later, then cancelled: back to approved, nothing sent.
    await compose(`Later ${run}`, `nobody-${run}`);
    await page.getByLabel('Send at (UTC)').fill(new Date(Date.now() + 86_400_000).toISOString().slice(0, 16));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.waitForURL('**done=scheduled');
    expect(await page.locator('#campaign-progress [data-status]').getAttribute('data-status')).toBe('scheduled');
    await checkPage(page, 'campaign-scheduled');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**done=cancel');
    expect(await page.locator('#campaign-progress [data-status]').getAttribute('data-status')).toBe('approved');
    await context.close();

    await anotherAccountSeesNothing(
      [`/app/campaigns/${campaignId}`, `/app/campaigns/${campaignId}/edit`, `/app/campaigns/${campaignId}/preview`, `/app/campaigns/${campaignId}/recipients`, `/app/campaigns/${campaignId}/progress`],
      `Launch ${run}`,
      [`/app/campaigns/${campaignId}/approve`, `/app/campaigns/${campaignId}/pause`, `/app/campaigns/${campaignId}/cancel`, `/app/campaigns/${campaignId}/retry-failed`, `/app/campaigns/${campaignId}/test`, `/app/campaigns/${campaignId}`],
    );
  }, BROWSER_FLOW_TIMEOUT_MS);
});
