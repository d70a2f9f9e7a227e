import { waitFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const twoEmails = {
  name: 'Two emails',
  trigger: { event: 'signup' },
  steps: [
    { id: 'a', type: 'email', subject: 'A', text: 'a' },
    { id: 'b', type: 'email', subject: 'B', text: 'b' },
  ],
};

describe('SMTP failures', () => {
  let harness: AutomationHarness;
  const scripted = new Map<string, (attempt: number) => { accept: true } | { accept: false; code: number; message: string }>();
  beforeAll(async () => {
    harness = await startAutomationHarness('smtp_failures', { env: { SEND_MAX_ATTEMPTS: '4' } });
    harness.sink.onRecipient = (address, attempt) => scripted.get(address)?.(attempt) ?? { accept: true };
  });
  afterAll(async () => harness.stop());

  it('a 550 at RCPT fails the step for good, marks the contact bounced, publishes contact.bounced.v1 and skips later steps', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, twoEmails);
    const contact = newContact();
    scripted.set(contact.email, () => ({ accept: false, code: 550, message: '5.1.1 mailbox does not exist' }));
    await harness.publishEvent(account, contact, 'signup');
    const failed = await harness.waitForState(account, contact.id, 'a', 'failed_permanent');
    expect(failed.reason).toMatch(/^bounced: 550 5\.1\.1 mailbox does not exist/);
    const skipped = await harness.waitForState(account, contact.id, 'b', 'skipped');
    expect(skipped.reason).toBe('bounced');
    const bounce = await waitFor(() => harness.bounces.find((message) => message.email === contact.email));
    expect(bounce).toEqual({ account_id: account, email: contact.email, reason: expect.stringMatching(/550/), occurred_at: expect.any(String) });
    expect(harness.sink.messagesTo(contact.email)).toHaveLength(0);
    const ledger = await harness.ledger(account, contact.id);
    expect(ledger[0]!.attempts).toBe(1);
  });

  it('a 451 is retried with backoff and then delivered once', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, { ...twoEmails, steps: [twoEmails.steps[0]] });
    const contact = newContact();
    scripted.set(contact.email, (attempt) => (attempt <= 2 ? { accept: false, code: 451, message: '4.7.1 try again later' } : { accept: true }));
    await harness.publishEvent(account, contact, 'signup');
    await harness.waitForState(account, contact.id, 'a', 'sent');
    expect(harness.sink.messagesTo(contact.email)).toHaveLength(1);
    const [row] = await harness.ledger(account, contact.id);
    expect(row!.attempts).toBe(3);
    const { rows } = await harness.pool.query<{ outcome: string }>('SELECT outcome FROM delivery_log WHERE account_id = $1 AND step_id = $2 ORDER BY id', [account, 'a']);
    expect(rows.map((r) => r.outcome)).toEqual(['retry_scheduled', 'retry_scheduled', 'sent']);
    expect(harness.bounces.some((message) => message.email === contact.email)).toBe(false);
  });

  it('a step that keeps failing transiently ends failed_permanent with the reason recorded, and the run goes on', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, twoEmails);
    const contact = newContact();
    scripted.set(contact.email, () => ({ accept: false, code: 421, message: '4.3.2 service not available' }));
    await harness.publishEvent(account, contact, 'signup');
    const failed = await harness.waitForState(account, contact.id, 'a', 'failed_permanent');
    expect(failed.reason).toMatch(/^retries_exhausted after 4 attempts: 421/);
    await harness.waitForState(account, contact.id, 'b', 'failed_permanent');
    expect(harness.sink.messagesTo(contact.email)).toHaveLength(0);
    const { rows } = await harness.pool.query<{ outcome: string }>('SELECT outcome FROM delivery_log WHERE account_id = $1 AND step_id = $2 ORDER BY id', [account, 'a']);
    expect(rows.map((r) => r.outcome)).toEqual(['retry_scheduled', 'retry_scheduled', 'retry_scheduled', 'failed_permanent']);
  });
});
