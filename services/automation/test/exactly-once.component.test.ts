import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const sequence = {
  name: 'Onboarding',
  trigger: { event: 'signup' },
  steps: [
    { id: 'welcome', type: 'email', subject: 'Welcome', text: 'Hello {{ first_name | default: "friend" }}' },
    { id: 'tips', type: 'email', subject: 'Tips', html: '<p>Three tips</p>' },
  ],
};

describe('each step is sent exactly once', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('exactly_once', { instances: 2 });
  });
  afterAll(async () => harness.stop());

  async function expectEachStepOnce(account: number, contactId: number, email: string) {
    await harness.waitForState(account, contactId, 'tips', 'sent');
    // Both instances have gone idle once every ledger row is final; only then count the sink.
    const subjects = harness.sink.messagesTo(email).map((message) => message.parsed.subject).sort();
    expect(subjects).toEqual(['Tips', 'Welcome']);
    const ledger = await harness.ledger(account, contactId);
    expect(ledger.map((row) => [row.step_id, row.state])).toEqual([
      ['welcome', 'sent'],
      ['tips', 'sent'],
    ]);
  }

  it('the same event sent 10 times in sequence, with two instances consuming, sends each step once', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, sequence);
    const contact = newContact();
    const messages: string[] = [];
    for (let i = 0; i < 10; i++) messages.push(await harness.publishEvent(account, contact, 'signup', { attempt: i }));
    for (const message of messages) await harness.waitProcessed(message);
    await expectEachStepOnce(account, contact.id, contact.email);
    const { rows } = await harness.pool.query<{ outcome: string; count: number }>(
      "SELECT outcome, count(*)::int AS count FROM delivery_log WHERE account_id = $1 AND outcome IN ('enrolled', 'already_enrolled') GROUP BY outcome ORDER BY outcome",
      [account],
    );
    expect(rows).toEqual([
      { outcome: 'already_enrolled', count: 9 },
      { outcome: 'enrolled', count: 1 },
    ]);
  });

  it('the same event sent 10 times in parallel, with two instances consuming, sends each step once', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, sequence);
    const contact = newContact();
    const messages = await Promise.all(Array.from({ length: 10 }, (_, i) => harness.publishEvent(account, contact, 'signup', { attempt: i })));
    for (const message of messages) await harness.waitProcessed(message);
    await expectEachStepOnce(account, contact.id, contact.email);
  });

  it('a redelivered message (same message id) changes nothing', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, sequence);
    const contact = newContact();
    await Promise.all(Array.from({ length: 5 }, () => harness.publishEvent(account, contact, 'signup', {}, `dup-${contact.id}`)));
    await expectEachStepOnce(account, contact.id, contact.email);
    const { rows } = await harness.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM delivery_log WHERE account_id = $1 AND outcome = $2', [
      account,
      'enrolled',
    ]);
    expect(rows[0]!.count).toBe(1);
  });

  it('many contacts at once across two instances: one email per contact and step', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, sequence);
    const contacts = Array.from({ length: 20 }, () => newContact());
    await Promise.all(contacts.flatMap((contact) => [harness.publishEvent(account, contact, 'signup'), harness.publishEvent(account, contact, 'signup')]));
    for (const contact of contacts) await harness.waitForState(account, contact.id, 'tips', 'sent');
    for (const contact of contacts) expect(harness.sink.messagesTo(contact.email)).toHaveLength(2);
  });
});
