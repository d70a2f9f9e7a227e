import { waitFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const marketing = {
  name: 'Nurture',
  trigger: { event: 'signup' },
  steps: [{ id: 'hello', type: 'email', subject: 'Hello', html: '<p>Hi</p><p><a href="{{ unsubscribe_url }}">Stop these emails</a></p>' }],
};

/** Issue #18: the page cannot be framed (clickjacking), and a repeated POST writes nothing new. */
describe('unsubscribe page hardening', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('unsubhard');
  });
  afterAll(async () => harness.stop());

  async function aLink() {
    const account = newAccountId();
    await harness.importWorkflow(account, marketing);
    const contact = newContact();
    await harness.publishEvent(account, contact, 'signup');
    const email = await waitFor(() => harness.sink.messagesTo(contact.email)[0]);
    return { account, contact, link: /href="([^"]+\/unsubscribe\/[^"]+)"/.exec(email.parsed.html || '')![1]! };
  }

  it("every answer forbids framing (CSP frame-ancestors 'none' and X-Frame-Options)", async () => {
    const { link } = await aLink();
    for (const response of [await fetch(link), await fetch(link, { method: 'POST' }), await fetch(`${link}x`)]) {
      expect(response.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('posting the link again (a second click, a mail scanner) answers 200 and writes no new row', async () => {
    const { account, contact, link } = await aLink();
    for (let i = 0; i < 5; i++) expect((await fetch(link, { method: 'POST' })).status).toBe(200);
    const log = await harness.pool.query("SELECT 1 FROM delivery_log WHERE account_id = $1 AND contact_id = $2 AND outcome = 'unsubscribed'", [account, contact.id]);
    expect(log.rowCount).toBe(1);
    // The outbox relay publishes (then clears) its rows: count what reached the broker instead.
    await waitFor(() => harness.unsubscribes.find((message) => message.contact_id === contact.id));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(harness.unsubscribes.filter((message) => message.contact_id === contact.id)).toHaveLength(1);
  });
});
