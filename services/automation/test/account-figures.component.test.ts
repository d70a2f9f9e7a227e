import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const twoEmails = {
  name: 'Two emails',
  trigger: { event: 'signup' },
  steps: [
    { id: 'a', type: 'email', subject: 'A', text: 'a' },
    { id: 'b', type: 'email', subject: 'B', text: 'b' },
  ],
};

interface Entry {
  outcome: string;
  reason: string | null;
  step_id: string | null;
  workflow: string | null;
}

describe('the account app figures (internal routes)', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('account_figures');
    harness.sink.onRecipient = (address) => (address.startsWith('bad') ? { accept: false, code: 550, message: '5.1.1 no such mailbox' } : { accept: true });
  });
  afterAll(async () => harness.stop());

  async function internal<T>(accountId: number, path: string): Promise<{ status: number; body: { data: T } }> {
    const url = `${harness.url}/internal/v1${path}`;
    const response = await fetch(url, { headers: { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method: 'GET', url }) } });
    return { status: response.status, body: (await response.json()) as { data: T } };
  }

  it("shows a contact's runs, each email with its outcome, and counts them on the dashboard", async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, twoEmails);
    const good = newContact();
    const bad = newContact({ email: `bad${Date.now()}@example.test` });
    await harness.publishEvent(account, good, 'signup');
    await harness.publishEvent(account, bad, 'signup');
    await harness.waitForState(account, good.id, 'b', 'sent');
    await harness.waitForState(account, bad.id, 'b', 'skipped');

    const activity = await internal<{ runs: Array<{ workflow: string; event_name: string; steps: Array<{ step_id: string; state: string }> }>; entries: Entry[] }>(
      account,
      `/contacts/${good.id}/activity`,
    );
    expect(activity.status).toBe(200);
    expect(activity.body.data.runs).toEqual([
      expect.objectContaining({ workflow: 'Two emails', event_name: 'signup', steps: [expect.objectContaining({ step_id: 'a', state: 'sent' }), expect.objectContaining({ step_id: 'b', state: 'sent' })] }),
    ]);
    expect(activity.body.data.entries.filter((entry) => entry.outcome === 'sent').map((entry) => entry.step_id).sort()).toEqual(['a', 'b']);

    const dashboard = await internal<{ daily: Array<{ day: string; sent: number; failed: number; skipped: number }>; workflows_active: number; campaigns_in_flight: number; recent_failures: Entry[] }>(
      account,
      '/dashboard',
    );
    expect(dashboard.body.data.daily).toHaveLength(30);
    expect(dashboard.body.data.daily.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), sent: 2, failed: 1, skipped: 1, opened: 0, clicked: 0 });
    expect(dashboard.body.data.daily.slice(0, -1).every((day) => day.sent + day.failed + day.skipped === 0)).toBe(true);
    expect(dashboard.body.data.workflows_active).toBe(1);
    expect(dashboard.body.data.campaigns_in_flight).toBe(0);
    expect(dashboard.body.data.recent_failures).toEqual([expect.objectContaining({ email: bad.email, reason: expect.stringMatching(/550/) })]);
  });

  it('shows nothing of one account to another', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, twoEmails);
    const contact = newContact();
    await harness.publishEvent(account, contact, 'signup');
    await harness.waitForState(account, contact.id, 'b', 'sent');
    const other = newAccountId();
    const activity = await internal<{ runs: unknown[]; entries: unknown[] }>(other, `/contacts/${contact.id}/activity`);
    expect(activity.body.data).toEqual({ runs: [], entries: [] });
    const dashboard = await internal<{ daily: Array<{ sent: number }>; workflows_active: number; recent_failures: unknown[] }>(other, '/dashboard');
    expect(dashboard.body.data.daily.every((day) => day.sent === 0)).toBe(true);
    expect(dashboard.body.data.workflows_active).toBe(0);
    expect(dashboard.body.data.recent_failures).toEqual([]);
    expect((await internal(account, '/contacts/abc/activity')).status).toBe(404);
  });
});
