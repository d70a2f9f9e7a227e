import { waitFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const welcome = {
  name: 'Welcome sequence',
  trigger: { event: 'signup' },
  fallbacks: { first_name: 'there', company: 'your team' },
  steps: [
    {
      id: 'welcome',
      type: 'email',
      subject: 'Welcome, {{ first_name }}!',
      html: '<p>Hi {{ first_name }}, glad you joined {{ company | default: "us" }}. Plan: {{ plan }}.</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    },
  ],
};

describe('personalised workflow emails', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('personalise');
  });
  afterAll(async () => harness.stop());

  async function sendSignup(properties: Record<string, unknown>, contactOverrides = {}) {
    const account = newAccountId();
    await harness.importWorkflow(account, welcome);
    const contact = newContact(contactOverrides);
    await harness.publishEvent(account, contact, 'signup', properties);
    const email = await waitFor(() => harness.sink.messagesTo(contact.email)[0], { what: `email to ${contact.email}` });
    return { email, account, contact };
  }

  it('personalises the welcome email with first_name from the event', async () => {
    const { email } = await sendSignup({ first_name: 'Ada' });
    expect(email.parsed.subject).toBe('Welcome, Ada!');
    expect(email.parsed.html).toContain('<p>Hi Ada, glad you joined us.');
  });

  it('uses the contact detail when the event does not carry it', async () => {
    const { email } = await sendSignup({}, { first_name: 'Grace' });
    expect(email.parsed.subject).toBe('Welcome, Grace!');
  });

  it('falls back to the workflow fallback text when first_name is missing, and to empty text without one', async () => {
    const { email } = await sendSignup({});
    expect(email.parsed.subject).toBe('Welcome, there!');
    expect(email.parsed.html).toContain('Hi there,');
    expect(email.parsed.html).toContain('Plan: .');
  });

  it("prefers the template's default: over the workflow fallback", async () => {
    const { email } = await sendSignup({});
    // company has a workflow fallback ("your team") but the template says default: "us".
    expect(email.parsed.html).toContain('glad you joined us.');
    expect(email.parsed.html).not.toContain('your team');
  });

  it('escapes HTML in a property', async () => {
    const { email } = await sendSignup({ first_name: '<script>alert(1)</script>', company: '<b>Evil</b> & co' });
    expect(email.parsed.html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(email.parsed.html).toContain('&lt;b&gt;Evil&lt;/b&gt; &amp; co');
    expect(email.parsed.html).not.toContain('<script>');
  });

  it('cannot add a header through CR/LF in a property', async () => {
    const { email } = await sendSignup({ first_name: 'Eve\r\nBcc: victim@example.test\r\nX-Injected: yes' });
    expect(email.headers.has('bcc')).toBe(false);
    expect(email.headers.has('x-injected')).toBe(false);
    expect(email.parsed.subject).toBe('Welcome, Eve Bcc: victim@example.test X-Injected: yes!');
    expect(email.to).toHaveLength(1);
    expect(harness.sink.messagesTo('victim@example.test')).toHaveLength(0);
  });

  it('carries a text part generated from the HTML, unsubscribe headers and a deterministic Message-ID', async () => {
    const { email, account, contact } = await sendSignup({ first_name: 'Lin' });
    expect(email.parsed.text).toContain('Hi Lin, glad you joined us. Plan: .');
    const unsubscribe = email.headers.get('list-unsubscribe');
    expect(unsubscribe).toMatch(new RegExp(`^<${harness.env.PUBLIC_BASE_URL}/unsubscribe/w1\\.${account}\\.${contact.id}\\.\\d+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}>$`));
    expect(email.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(email.parsed.html).toContain(`href="${unsubscribe!.slice(1, -1)}"`);
    await harness.waitForState(account, contact.id, 'welcome', 'sent');
    const [row] = await harness.ledger(account, contact.id);
    expect(row).toMatchObject({ step_id: 'welcome', state: 'sent', attempts: 1 });
    expect(email.parsed.messageId).toBe(row!.message_id);
    expect(row!.message_id).toMatch(/^<[0-9a-f]{40}@mailer\.test>$/);
    expect(email.from).toBe('robot@mailer.test');
    expect(email.to).toEqual([contact.email]);
  });
});
