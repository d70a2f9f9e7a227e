import { waitFor } from '@mailer/testing';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { startProduct, type Product } from './stack-harness';

const welcomeSequence = {
  name: 'Welcome sequence',
  trigger: { event: 'signup' },
  transactional: false,
  fallbacks: { first_name: 'there' },
  steps: [
    { id: 'welcome', type: 'email', subject: 'Welcome, {{ first_name }}!', html: '<p>Hi {{ first_name }}, welcome to {{ company | default: "us" }}.</p>' },
    { id: 'pause', type: 'wait', duration: '2s' },
    { id: 'tips', type: 'email', subject: 'Three tips', html: '<p>Tip one.</p>' },
  ],
};

describe('product events through the gateway, to email in the inbox', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  async function accountWithWelcomeSequence() {
    const account = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, account.accountId, [welcomeSequence]);
    return account;
  }

  async function contactByEmail(key: string, email: string, filter = '') {
    const listed = await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}${filter}`);
    const [contact] = (listed.body?.data ?? []) as Array<Record<string, unknown>>;
    return contact;
  }

  it('accepts a signup with 202, upserts the contact and delivers a personalised welcome email', async () => {
    const { key } = await accountWithWelcomeSequence();
    const accepted = await product.sendEvent(key, { event: 'signup', email: 'ada@example.test', properties: { first_name: 'Ada', company: 'Acme' } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ data: { id: expect.any(String), event: 'signup', email: 'ada@example.test', received_at: expect.stringMatching(/Z$/) } });

    const [email] = await waitFor(() => {
      const received = product.smtp.messagesTo('ada@example.test');
      return received.length > 0 ? received : undefined;
    }, { timeoutMs: 15_000, what: 'the welcome email' });
    expect(email?.parsed.subject).toBe('Welcome, Ada!');
    expect(email?.parsed.html).toContain('Hi Ada, welcome to Acme.');
    expect(email?.headers.get('list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/.+>$/);

    const contact = await waitFor(() => contactByEmail(key, 'ada@example.test'), { what: 'the upserted contact' });
    expect(contact).toMatchObject({ email: 'ada@example.test', first_name: 'Ada', source: 'event', subscribed: true });
  });

  it('unsubscribes through the one-click link on the gateway and skips the next marketing step', async () => {
    const { key } = await accountWithWelcomeSequence();
    await product.sendEvent(key, { event: 'signup', email: 'grace@example.test', properties: {} });
    const [welcome] = await waitFor(() => {
      const received = product.smtp.messagesTo('grace@example.test');
      return received.length > 0 ? received : undefined;
    }, { timeoutMs: 15_000, what: 'the welcome email' });
    expect(welcome?.parsed.subject).toBe('Welcome, there!');
    const link = /^<(.+)>$/.exec(welcome?.headers.get('list-unsubscribe') ?? '')?.[1];
    expect(link).toBeDefined();

    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const oneClick = await fetch(link!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);

    await waitFor(async () => ((await contactByEmail(key, 'grace@example.test'))?.subscribed === false ? true : undefined), {
      what: 'subscribed: false on the contact',
    });
    // The wait step is 2 s: give it time to come due, then the tips email must not have been sent.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(product.smtp.messagesTo('grace@example.test').map((message) => message.parsed.subject)).toEqual(['Welcome, there!']);
  });

  it('marks a contact bounced after a 550 at RCPT, visible through GET /api/v1/contacts?bounced=true', async () => {
    const { key } = await accountWithWelcomeSequence();
    product.smtp.onRecipient = (address) =>
      address === 'gone@example.test' ? { accept: false, code: 550, message: 'mailbox unavailable' } : { accept: true };
    const accepted = await product.sendEvent(key, { event: 'signup', email: 'gone@example.test', properties: {} });
    expect(accepted.status).toBe(202);
    const bounced = await waitFor(() => contactByEmail(key, 'gone@example.test', '&bounced=true'), {
      timeoutMs: 15_000,
      what: 'the contact marked bounced',
    });
    expect(bounced).toMatchObject({ email: 'gone@example.test', bounced: true });
    expect(product.smtp.messagesTo('gone@example.test')).toEqual([]);
  });

  it('refuses a malformed event with 422 and publishes nothing', async () => {
    const { key } = await accountWithWelcomeSequence();
    const refused = await product.sendEvent(key, { event: '', email: 'not-an-email' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ errors: expect.arrayContaining([expect.any(String)]) });
  });
});
