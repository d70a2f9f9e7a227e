import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '@mailer/testing';
import { runAdmin as runCampaignsAdmin } from '../../services/campaigns/src/cli/admin';
import { runAdmin as runAutomationAdmin } from '../../services/automation/src/cli/run-admin';
import { deliveryHistory } from '../../services/automation/src/data-access/delivery-log.repository';
import { startProduct, type Product } from './stack-harness';

// The files a new user loads first (examples/README.md), loaded the way the README says: through
// the operator CLI into a running product, then exercised through the public API.
const ROOT = path.resolve(__dirname, '../..');
const WORKFLOWS_DIR = path.join(ROOT, 'examples/workflows');
const CAMPAIGNS_FILE = path.join(ROOT, 'examples/campaigns/history.json');

const workflowFiles = readdirSync(WORKFLOWS_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort();
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

/** Runs one `npm run admin -- workflows ...` command in-process; stdout parsed as JSON. */
async function workflowsAdmin(env: NodeJS.ProcessEnv, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAutomationAdmin(['workflows', ...argv], env, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, stderr: err.join(''), json: out.length > 0 ? (JSON.parse(out.join('')) as { data: Array<Record<string, unknown>> }) : undefined };
}

describe('examples/ (the example workflows and campaign history)', () => {
  let product: Product;
  let account: { accountId: number; key: string };

  beforeAll(async () => {
    product = await startProduct();
    account = await product.anAccountWithKey();
  }, 60_000);
  afterAll(() => product?.stop());

  it('holds the three workflows the docs name', () => {
    expect(workflowFiles).toEqual(['trial-ending.json', 'usage-threshold.json', 'welcome-series.json']);
  });

  it('every workflow file is accepted whole by `workflows import` and listed with its trigger', async () => {
    for (const file of workflowFiles) {
      const { name } = readJson(path.join(WORKFLOWS_DIR, file)) as { name: string };
      const imported = await workflowsAdmin(product.env, 'import', path.join(WORKFLOWS_DIR, file), '--account', String(account.accountId));
      expect({ file, code: imported.code, stderr: imported.stderr }).toEqual({ file, code: 0, stderr: '' });
      expect(imported.json?.data).toEqual([expect.objectContaining({ name, replaced: false })]);
    }
    const listed = await workflowsAdmin(product.env, 'list', '--account', String(account.accountId));
    expect(listed.json?.data.map((w) => [w.name, (w.trigger as { event: string }).event]).sort()).toEqual([
      ['Trial ending', 'trial_ending'],
      ['Usage threshold', 'usage_updated'],
      ['Welcome series', 'signup'],
    ]);
  });

  it('the campaign history is accepted by `campaigns import` and served by GET /api/v1/campaigns, newest first', async () => {
    const rows = readJson(CAMPAIGNS_FILE) as Array<{ name: string; status: string }>;
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCampaignsAdmin(['campaigns', 'import', 'examples/campaigns/history.json', '--account', String(account.accountId)], {
      env: product.env,
      cwd: ROOT,
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
    });
    expect({ code, stderr: err.join('') }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(out.join(''))).toMatchObject({ account_id: account.accountId, imported: rows.length });

    const listed = await product.api(account.key, 'GET', '/campaigns');
    expect(listed.status).toBe(200);
    const served = (listed.body?.data as Array<{ name: string; status: string }>).map(({ name, status }) => ({ name, status }));
    expect(served).toEqual(rows.map(({ name, status }) => ({ name, status })).reverse());
  });

  // The quickstart fires exactly this: a signup with nothing but an address.
  it('a signup with no properties gets the welcome email at once, personalised from the fallbacks', async () => {
    const email = 'newcomer@example.test';
    const accepted = await product.sendEvent(account.key, { event: 'signup', email });
    expect(accepted.status).toBe(202);
    const [message] = await waitFor(() => nonEmpty(product.smtp.messagesTo(email)), { timeoutMs: 15_000, what: 'the welcome email' });
    expect(message?.parsed.subject).toBe('Welcome aboard, there!');
    expect(message?.parsed.html).toContain('We are glad your team is here.');
    expect(message?.parsed.text).toContain('Welcome, there!');
    // The outcome is recorded just after the mail server accepted it; the tips email waits three days.
    const history = await waitFor(
      async () => {
        const rows = await deliveryHistory(product.automation.pool, account.accountId, { email });
        return rows.some((row) => row.outcome === 'sent' && row.step_id === 'welcome') ? rows : undefined;
      },
      { what: 'the welcome step recorded as sent' },
    );
    expect(history.some((row) => row.step_id === 'tips')).toBe(false);
  });

  it('trial_ending and usage_updated send only when their conditions hold', async () => {
    const events = [
      { event: 'trial_ending', email: 'trial-yes@example.test', properties: { plan: 'trial', days_left: 2, first_name: 'Ada', trial_end_date: 'on 1 July' } },
      { event: 'trial_ending', email: 'trial-no@example.test', properties: { plan: 'pro', days_left: 2 } },
      { event: 'usage_updated', email: 'usage-yes@example.test', properties: { usage_percent: 85 } },
      { event: 'usage_updated', email: 'usage-no@example.test', properties: { usage_percent: 40, first_name: 'Grace' } },
    ];
    for (const event of events) expect((await product.sendEvent(account.key, event)).status).toBe(202);

    const [trial] = await waitFor(() => nonEmpty(product.smtp.messagesTo('trial-yes@example.test')), { timeoutMs: 15_000, what: 'the trial email' });
    expect(trial?.parsed.subject).toBe('Your trial ends on 1 July');
    expect(trial?.parsed.text).toContain('Hi Ada,');
    expect(trial?.parsed.text).toContain('(2 days left)');
    const [usage] = await waitFor(() => nonEmpty(product.smtp.messagesTo('usage-yes@example.test')), { timeoutMs: 15_000, what: 'the usage email' });
    expect(usage?.parsed.subject).toBe('You have used 85% of your current plan');

    for (const [email, reason] of [
      ['trial-no@example.test', /plan eq "trial"/],
      ['usage-no@example.test', /usage_percent gte 80/],
    ] as const) {
      const refused = await waitFor(
        async () => (await deliveryHistory(product.automation.pool, account.accountId, { email })).find((row) => row.outcome === 'not_matched'),
        { timeoutMs: 15_000, what: `not_matched for ${email}` },
      );
      expect(refused.reason).toMatch(reason);
      expect(product.smtp.messagesTo(email)).toEqual([]);
    }
  });
});

function nonEmpty<T>(items: T[]): T[] | undefined {
  return items.length > 0 ? items : undefined;
}
