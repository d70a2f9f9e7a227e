import { waitFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const withWait = (seconds: number) => ({
  name: `Trial tips ${seconds}s`,
  trigger: { event: 'trial_started' },
  steps: [
    { id: 'first', type: 'email', subject: 'First', text: 'one' },
    { id: 'pause', type: 'wait', duration: `${seconds}s` },
    { id: 'second', type: 'email', subject: 'Second', text: 'two' },
  ],
});

describe('wait steps and restarts', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('waits');
  });
  afterAll(async () => harness.stop());

  it('a wait step delays the next email by at least its duration', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, withWait(2));
    const contact = newContact();
    await harness.publishEvent(account, contact, 'trial_started');
    const [first, second] = await waitFor(() => {
      const emails = harness.sink.messagesTo(contact.email);
      return emails.length === 2 ? emails : undefined;
    }, { timeoutMs: 15_000 });
    expect([first!.parsed.subject, second!.parsed.subject]).toEqual(['First', 'Second']);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(2000);
  });

  it('stopping the service during the wait and starting it again still sends the next step once', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, withWait(3));
    const contact = newContact();
    await harness.publishEvent(account, contact, 'trial_started');
    await harness.waitForState(account, contact.id, 'first', 'sent');
    const sentFirstAt = Date.now();
    await harness.stopInstance(harness.instances[0]!);
    expect((await harness.ledger(account, contact.id)).map((row) => [row.step_id, row.state])).toEqual([
      ['first', 'sent'],
      ['second', 'pending'],
    ]);
    await harness.startInstance();
    await harness.waitForState(account, contact.id, 'second', 'sent', 15_000);
    expect(Date.now() - sentFirstAt).toBeGreaterThanOrEqual(2900);
    expect(harness.sink.messagesTo(contact.email).map((email) => email.parsed.subject)).toEqual(['First', 'Second']);
  }, 30_000);

  it('a claim whose lease expired (instance crashed mid-send) is re-sent once with the same Message-ID and logged', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, {
      name: 'Later',
      trigger: { event: 'later' },
      steps: [
        { id: 'pause', type: 'wait', duration: '1h' },
        { id: 'note', type: 'email', subject: 'Note', text: 'n' },
      ],
    });
    const contact = newContact();
    await harness.waitProcessed(await harness.publishEvent(account, contact, 'later'));
    // What a crash between claim and outcome leaves behind: claimed by a dead instance, lease over.
    await harness.pool.query(
      `UPDATE sends SET state = 'claimed', attempts = 1, claimed_by = 'automation-crashed', due_at = now(),
              lease_until = now() - interval '1 second' WHERE account_id = $1 AND contact_id = $2`,
      [account, contact.id],
    );
    await harness.waitForState(account, contact.id, 'note', 'sent');
    const [row] = await harness.ledger(account, contact.id);
    expect(row!.attempts).toBe(2);
    const emails = harness.sink.messagesTo(contact.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.parsed.messageId).toBe(row!.message_id);
    const { rows } = await harness.pool.query<{ outcome: string }>('SELECT outcome FROM delivery_log WHERE account_id = $1 AND step_id = $2 ORDER BY id', [
      account,
      'note',
    ]);
    expect(rows.map((r) => r.outcome)).toEqual(['reconciled', 'sent']);
  });
});
