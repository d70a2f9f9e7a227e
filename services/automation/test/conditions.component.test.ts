import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const usageAlert = {
  name: 'Usage alert',
  trigger: { event: 'usage', where: [{ property: 'usage_percent', op: 'gte', value: 80 }] },
  steps: [{ id: 'alert', type: 'email', subject: 'You used {{ usage_percent }}%', text: 'Time to upgrade' }],
};

describe('workflow trigger conditions', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('conditions');
  });
  afterAll(async () => harness.stop());

  const logOf = async (account: number, contactId: number) =>
    (
      await harness.pool.query<{ outcome: string; reason: string | null }>(
        'SELECT outcome, reason FROM delivery_log WHERE account_id = $1 AND contact_id = $2 ORDER BY id',
        [account, contactId],
      )
    ).rows;

  it('usage_percent 50 sends nothing, 85 sends, 90 after 85 sends nothing more', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, usageAlert);
    const contact = newContact();

    await harness.waitProcessed(await harness.publishEvent(account, contact, 'usage', { usage_percent: 50 }));
    expect(await logOf(account, contact.id)).toEqual([{ outcome: 'not_matched', reason: 'condition not met: usage_percent gte 80' }]);

    await harness.publishEvent(account, contact, 'usage', { usage_percent: 85 });
    await harness.waitForState(account, contact.id, 'alert', 'sent');

    await harness.waitProcessed(await harness.publishEvent(account, contact, 'usage', { usage_percent: 90 }));
    expect((await logOf(account, contact.id)).at(-1)).toEqual({ outcome: 'already_enrolled', reason: 'each step is sent once per contact' });
    const emails = harness.sink.messagesTo(contact.email);
    expect(emails.map((email) => email.parsed.subject)).toEqual(['You used 85%']);
  });

  it('compares numbers as numbers, also when the event sends them as strings', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, usageAlert);
    const contact = newContact();
    await harness.publishEvent(account, contact, 'usage', { usage_percent: '100' });
    await harness.waitForState(account, contact.id, 'alert', 'sent');
  });

  it('ignores events of other names and other accounts', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, usageAlert);
    const contact = newContact();
    // Not routed to automation at all: no workflow of theirs triggers on them.
    expect(await harness.publishEventIfRouted(account, contact, 'login', { usage_percent: 95 })).toBeUndefined();
    expect(await harness.publishEventIfRouted(newAccountId(), contact, 'usage', { usage_percent: 95 })).toBeUndefined();
    expect(await harness.ledger(account, contact.id)).toEqual([]);
    expect(await logOf(account, contact.id)).toEqual([]);
  });
});
