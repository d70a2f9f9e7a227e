import { contactUpdatedV1 } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const marketing = {
  name: 'Nurture',
  trigger: { event: 'signup' },
  steps: [
    { id: 'hello', type: 'email', subject: 'Hello', html: '<p>Hi</p><p><a href="{{ unsubscribe_url }}">Stop these emails</a></p>' },
    { id: 'pause', type: 'wait', duration: '2s' },
    { id: 'offer', type: 'email', subject: 'Offer', text: 'Buy now' },
  ],
};

const receipts = {
  name: 'Receipts',
  trigger: { event: 'purchase' },
  transactional: true,
  steps: [{ id: 'receipt', type: 'email', subject: 'Your receipt', text: 'Thanks for your order' }],
};

describe('unsubscribe and suppression', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('unsubscribe');
  });
  afterAll(async () => harness.stop());

  it('the link works in a real HTTP round trip (GET confirms, POST unsubscribes) and the next marketing step is skipped', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, marketing);
    const contact = newContact();
    await harness.publishEvent(account, contact, 'signup');
    const email = await waitFor(() => harness.sink.messagesTo(contact.email)[0]);
    const link = /href="([^"]+\/unsubscribe\/[^"]+)"/.exec(email.parsed.html || '')![1]!;
    expect(email.headers.get('list-unsubscribe')).toBe(`<${link}>`);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<form method="post">');
    expect(harness.unsubscribes).toHaveLength(0); // a GET (link scanner) never unsubscribes

    const done = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('unsubscribed');

    const request = await waitFor(() => harness.unsubscribes.find((message) => message.contact_id === contact.id));
    // The address travels with the request: contacts suppresses it even if the contact is deleted meanwhile.
    expect(request).toEqual({ account_id: account, contact_id: contact.id, email: contact.email, occurred_at: expect.any(String) });
    const skipped = await harness.waitForState(account, contact.id, 'offer', 'skipped');
    expect(skipped.reason).toBe('unsubscribed');
    expect(harness.sink.messagesTo(contact.email).map((message) => message.parsed.subject)).toEqual(['Hello']);
  });

  it('accepts the RFC 8058 one-click POST from the List-Unsubscribe header', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, marketing);
    const contact = newContact();
    await harness.publishEvent(account, contact, 'signup');
    const email = await waitFor(() => harness.sink.messagesTo(contact.email)[0]);
    const link = email.headers.get('list-unsubscribe')!.slice(1, -1);
    const response = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(response.status).toBe(200);
    await waitFor(() => harness.unsubscribes.find((message) => message.contact_id === contact.id));
    await harness.waitForState(account, contact.id, 'offer', 'skipped');
  });

  it('answers 404 for a forged or altered link', async () => {
    const forged = await fetch(`${harness.url}/unsubscribe/v1.1.2.${'A'.repeat(43)}`, { method: 'POST' });
    expect(forged.status).toBe(404);
    expect((await fetch(`${harness.url}/unsubscribe/nonsense`)).status).toBe(404);
  });

  it('a contact who never subscribed gets transactional emails but no marketing ones ("not subscribed")', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, [marketing, receipts]);
    const contact = newContact({ subscribed: false });
    await harness.publishEvent(account, contact, 'signup');
    await harness.publishEvent(account, contact, 'purchase');
    await harness.waitForState(account, contact.id, 'receipt', 'sent');
    expect((await harness.waitForState(account, contact.id, 'hello', 'skipped')).reason).toBe('not subscribed');
    expect(harness.sink.messagesTo(contact.email).map((message) => message.parsed.subject)).toEqual(['Your receipt']);
  });

  it('a suppressed address gets nothing, transactional included ("unsubscribed", "suppressed", "bounced")', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, [marketing, receipts]);
    const unsubscribed = newContact({ subscribed: false, suppression: 'unsubscribed' });
    await harness.publishEvent(account, unsubscribed, 'signup');
    await harness.publishEvent(account, unsubscribed, 'purchase');
    expect((await harness.waitForState(account, unsubscribed.id, 'hello', 'skipped')).reason).toBe('unsubscribed');
    expect((await harness.waitForState(account, unsubscribed.id, 'receipt', 'skipped')).reason).toBe('suppressed');
    const bounced = newContact({ subscribed: true, suppression: 'bounced' });
    await harness.publishEvent(account, bounced, 'signup');
    expect((await harness.waitForState(account, bounced.id, 'hello', 'skipped')).reason).toBe('bounced');
    expect(harness.sink.messagesTo(unsubscribed.email)).toEqual([]);
    expect(harness.sink.messagesTo(bounced.email)).toEqual([]);
  });

  it('a contact.updated fact marking the contact bounced suppresses the next step', async () => {
    const account = newAccountId();
    await harness.importWorkflow(account, marketing);
    const contact = newContact({ first_name: 'Ivy' });
    await harness.publishEvent(account, contact, 'signup');
    await harness.waitForState(account, contact.id, 'hello', 'sent');
    await harness.publish(contactUpdatedV1, {
      account_id: account,
      contact: { ...contact, bounced: true },
      changed: ['bounced'],
      occurred_at: new Date().toISOString(),
    });
    expect((await harness.waitForState(account, contact.id, 'offer', 'skipped')).reason).toBe('bounced');
  });
});
