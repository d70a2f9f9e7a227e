import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor, waitFor } from '@mailer/testing';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { startProduct, type Product } from './stack-harness';

interface ContactJson {
  id: number;
  email: string;
  subscribed: boolean;
}

describe('double opt-in on the real stack (issue #22)', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  async function internal(base: string, accountId: number, method: string, path: string, body?: unknown) {
    const url = `${base}/internal/v1${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, {
      method,
      headers: { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body: payload }), ...(payload ? { 'content-type': 'application/json' } : {}) },
      body: payload,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function contactByEmail(key: string, email: string): Promise<ContactJson | undefined> {
    const listed = await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}`);
    return ((listed.body?.data ?? []) as ContactJson[])[0];
  }

  /** An account with double opt-in on, its own confirmation email, and a transactional and a marketing workflow on `signup`. */
  async function accountWithDoubleOptIn() {
    const account = await product.anAccountWithKey();
    expect((await internal(product.contacts.url, account.accountId, 'PUT', '/double-opt-in', { enabled: true })).status).toBe(200);
    const template = { subject: 'Confirm, {{ first_name }}', html: '<p>Hi {{ first_name }}, <a href="{{ confirm_url }}">confirm</a></p>' };
    expect((await internal(product.automation.url, account.accountId, 'PUT', '/confirmation-template', template)).status).toBe(200);
    await importWorkflows(product.automation.workflowWrites, account.accountId, [
      { name: 'Welcome', trigger: { event: 'signup' }, steps: [{ id: 'hello', type: 'email', subject: 'Welcome {{ first_name }}', html: '<p>Welcome</p>' }] },
      { name: 'Receipt', trigger: { event: 'signup' }, transactional: true, steps: [{ id: 'receipt', type: 'email', subject: 'Receipt', html: '<p>Receipt</p>' }] },
    ]);
    return account;
  }

  it('an event creates a pending contact that gets only the confirmation email; after confirming, the next event sends the workflow email', async () => {
    const account = await accountWithDoubleOptIn();
    const email = `pending${account.accountId}@example.test`;
    expect((await product.sendEvent(account.key, { event: 'signup', email, properties: { first_name: 'Pia' } })).status).toBe(202);

    const [confirmation] = await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? product.smtp.messagesTo(email) : undefined), {
      what: 'the confirmation email',
      timeoutMs: 15_000,
    });
    expect(confirmation!.parsed.subject).toBe('Confirm, Pia');
    const contact = (await contactByEmail(account.key, email))!;
    expect(contact).toMatchObject({ subscribed: false });
    // Neither workflow enrolled the pending contact; the log says why.
    const { rows: log } = await product.automation.pool.query<{ outcome: string; reason: string }>(
      "SELECT outcome, reason FROM delivery_log WHERE account_id = $1 AND contact_id = $2 AND outcome = 'not_matched'",
      [account.accountId, contact.id],
    );
    expect(log).toEqual([
      { outcome: 'not_matched', reason: 'awaiting confirmation' },
      { outcome: 'not_matched', reason: 'awaiting confirmation' },
    ]);

    // A link scanner's GET confirms nothing; a forged token is refused.
    const link = /href="([^"]+\/confirm\/[^"]+)"/.exec(String(confirmation!.parsed.html))?.[1];
    expect(link).toContain(`${product.gateway.url}/confirm/v1.${account.accountId}.${contact.id}.`);
    expect((await fetch(link!)).status).toBe(200);
    expect((await fetch(`${link!.slice(0, -3)}AAA`, { method: 'POST' })).status).toBe(404);
    // A second event while pending still sends nothing but the one confirmation.
    expect((await product.sendEvent(account.key, { event: 'signup', email })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
    expect((await contactByEmail(account.key, email))?.subscribed).toBe(false);

    expect((await fetch(link!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status).toBe(200);
    await waitFor(async () => ((await contactByEmail(account.key, email))?.subscribed ? true : undefined), { what: 'the contact subscribed', timeoutMs: 15_000 });
    const { rows } = await product.contacts.pool.query<{ confirmation: string; confirmed_at: Date; confirmed_from: string }>(
      'SELECT confirmation, confirmed_at, confirmed_from FROM contacts WHERE id = $1',
      [contact.id],
    );
    expect(rows[0]).toMatchObject({ confirmation: 'confirmed', confirmed_at: expect.any(Date), confirmed_from: expect.stringMatching(/127\.0\.0\.1|::1/) });

    expect((await product.sendEvent(account.key, { event: 'signup', email })).status).toBe(202);
    const all = await waitFor(() => (product.smtp.messagesTo(email).length >= 3 ? product.smtp.messagesTo(email) : undefined), {
      what: 'the workflow emails after confirming',
      timeoutMs: 15_000,
    });
    expect(all.map((message) => message.parsed.subject).sort()).toEqual(['Confirm, Pia', 'Receipt', 'Welcome Pia']);
  }, 60_000);

  it('a CSV import row that says subscribed starts pending and gets the confirmation email; one that says no gets nothing', async () => {
    const account = await accountWithDoubleOptIn();
    const yes = `import-yes${account.accountId}@example.test`;
    const no = `import-no${account.accountId}@example.test`;
    const imported = await internal(product.contacts.url, account.accountId, 'POST', '/contacts/import', {
      rows: [
        { email: yes, first_name: 'Ida', subscribed: true },
        { email: no, subscribed: false },
      ],
    });
    expect(imported.status).toBe(200);
    const [confirmation] = await waitFor(() => (product.smtp.messagesTo(yes).length > 0 ? product.smtp.messagesTo(yes) : undefined), { what: 'the confirmation email' });
    expect(confirmation!.parsed.subject).toBe('Confirm, Ida');
    expect((await contactByEmail(account.key, yes))?.subscribed).toBe(false);
    await product.sendEvent(account.key, { event: 'signup', email: yes });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(yes)).toHaveLength(1);
    expect(product.smtp.messagesTo(no)).toHaveLength(0);
  }, 30_000);

  it('the hosted subscribe form: a filled honeypot changes nothing, a person gets the confirmation email, a sixth try in 10 minutes is 429', async () => {
    const account = await accountWithDoubleOptIn();
    const form = await internal(product.contacts.url, account.accountId, 'GET', '/subscribe-form');
    const url = `${product.gateway.url}${(form.body.data as { path: string }).path}`;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<label for="email">');
    const post = (fields: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

    const bot = `bot${account.accountId}@example.test`;
    expect((await post({ email: bot, website: 'http://spam.example' })).status).toBe(200);
    const person = `form${account.accountId}@example.test`;
    expect((await post({ email: person, first_name: 'Flo' })).status).toBe(200);
    const [confirmation] = await waitFor(() => (product.smtp.messagesTo(person).length > 0 ? product.smtp.messagesTo(person) : undefined), { what: 'the confirmation email' });
    expect(confirmation!.parsed.subject).toBe('Confirm, Flo');
    expect(await contactByEmail(account.key, person)).toMatchObject({ subscribed: false, source: 'form' });
    expect(await contactByEmail(account.key, bot)).toBeUndefined();
    expect((await post({ email: 'not an address' })).status).toBe(422);
    // The address is listed already: the same answer, nothing new (the form tells nobody who is listed).
    expect((await post({ email: person })).status).toBe(200);
    expect((await post({ email: person })).status).toBe(200);
    expect((await post({ email: person })).status).toBe(429);
    expect(product.smtp.messagesTo(person)).toHaveLength(1);
    expect((await fetch(`${product.gateway.url}/subscribe/no-such-form`, { method: 'POST', body: new URLSearchParams({ email: person }) })).status).toBe(404);
  }, 30_000);

  it('a contact created through the REST interface keeps `subscribed` as given and gets no confirmation email', async () => {
    const account = await accountWithDoubleOptIn();
    const email = `rest${account.accountId}@example.test`;
    const created = await product.api(account.key, 'POST', '/contacts', { email, subscribed: true });
    expect(created.status).toBe(201);
    expect(created.body?.data).toMatchObject({ subscribed: true });
    expect((await product.sendEvent(account.key, { event: 'signup', email })).status).toBe(202);
    const received = await waitFor(() => (product.smtp.messagesTo(email).length >= 2 ? product.smtp.messagesTo(email) : undefined), { what: 'the workflow emails' });
    const subjects = received.map((message) => message.parsed.subject);
    expect(subjects).toContain('Receipt');
    expect(subjects.some((subject) => subject?.startsWith('Welcome'))).toBe(true);
    expect(subjects.some((subject) => subject?.startsWith('Confirm'))).toBe(false);
  }, 30_000);

  it('with double opt-in off (the default) an event-created contact is subscribed at once, as before', async () => {
    const account = await product.anAccountWithKey();
    expect((await internal(product.contacts.url, account.accountId, 'GET', '/double-opt-in')).body).toEqual({ data: { enabled: false } });
    expect((await internal(product.contacts.url, account.accountId, 'PUT', '/double-opt-in', { enabled: 'yes' })).status).toBe(422);
    const email = `open${account.accountId}@example.test`;
    expect((await product.sendEvent(account.key, { event: 'signup', email })).status).toBe(202);
    await waitFor(async () => ((await contactByEmail(account.key, email))?.subscribed ? true : undefined), { what: 'the subscribed contact' });
  });

  it('the confirmation template must parse and carry {{ confirm_url }}', async () => {
    const account = await product.anAccountWithKey();
    const put = (body: unknown) => internal(product.automation.url, account.accountId, 'PUT', '/confirmation-template', body);
    expect((await put({ subject: 'Hi', html: '<p>no link</p>' })).status).toBe(422);
    expect((await put({ subject: 'Hi {{', html: '<a href="{{ confirm_url }}">x</a>' })).status).toBe(422);
    expect((await internal(product.automation.url, account.accountId, 'GET', '/confirmation-template')).body).toMatchObject({ data: { default: true, text: null } });
    // A text part of its own, checked like the others; empty means generated from the HTML.
    expect((await put({ subject: 'Hi', html: '<a href="{{ confirm_url }}">x</a>', text: 'Bad {% if %}' })).body).toEqual({ errors: [expect.stringMatching(/^text: /)] });
    const own = { subject: 'Hi {{ first_name }}', html: '<a href="{{ confirm_url }}">x</a>', text: 'Hello {{ first_name }}, confirm here: {{ confirm_url }}' };
    expect((await put(own)).status).toBe(200);
    expect((await internal(product.automation.url, account.accountId, 'GET', '/confirmation-template')).body).toEqual({ data: { ...own, default: false } });
  });

  it('the template preview renders for a sample contact with a sample confirm link, and names the field of a problem', async () => {
    const account = await product.anAccountWithKey();
    const email = `sample${account.accountId}@example.test`;
    expect((await product.api(account.key, 'POST', '/contacts', { email, first_name: 'Sam', subscribed: true })).status).toBe(201);
    const preview = (body: unknown) => internal(product.automation.url, account.accountId, 'POST', '/confirmation-template/preview', body);
    const template = { subject: 'Confirm, {{ first_name }}', html: '<p><a href="{{ confirm_url }}">Yes</a></p>', text: 'Yes: {{ confirm_url }}' };
    // Automation learns of the contact from contacts' fact: asked again until it has.
    const shown = await waitFor(async () => {
      const answer = await preview({ ...template, contact_email: email });
      return (answer.body.data as { known_contact?: boolean } | undefined)?.known_contact ? answer : undefined;
    }, { what: 'a preview for the known contact' });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ subject: 'Confirm, Sam', known_contact: true, text: expect.stringContaining('Yes: http') });
    expect((shown.body.data as { html: string }).html).toContain('/confirm/sample');
    // An unknown address renders as a contact with no details.
    expect((await preview({ ...template, contact_email: 'nobody@example.test' })).body.data).toMatchObject({ subject: 'Confirm,', known_contact: false });
    expect((await preview({ ...template, html: '<p>no link</p>', contact_email: email })).body).toEqual({ errors: ['html: must contain {{ confirm_url }}, the link that confirms'] });
    expect((await preview({ ...template, contact_email: 'not an address' })).body).toEqual({ errors: ['contact_email: must be an email address'] });
    // Nothing was saved by previewing.
    expect((await internal(product.automation.url, account.accountId, 'GET', '/confirmation-template')).body).toMatchObject({ data: { default: true } });
  });
});
