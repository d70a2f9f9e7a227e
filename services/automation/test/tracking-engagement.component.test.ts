import { randomUUID } from 'node:crypto';
import {
  campaignSendRequestedV1,
  campaignTestRequestedV1,
  contactConfirmationRequestedV1,
  emailClickedV1,
  emailOpenedV1,
  trackingSecret,
  verifyTrackingToken,
  type ContactSnapshot,
  type MessageOf,
} from '@mailer/shared';
import { waitFor, type ReceivedEmail } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const html =
  '<html><body><p>Hi {{ first_name }}</p><a href="https://shop.test/offer?x=1&amp;y=2">Offer</a> ' +
  '<a href="mailto:help@shop.test">Help</a> <a href="{{ unsubscribe_url }}">Unsubscribe</a></body></html>';

const welcome = {
  name: 'Tracked welcome',
  trigger: { event: 'signup' },
  steps: [{ id: 'welcome', type: 'email', subject: 'Welcome, {{ first_name | default: "friend" }}', html }],
};

interface Ledger {
  id: string;
  subject: string | null;
  first_opened_at: Date | null;
  first_clicked_at: Date | null;
  opens: number;
  clicks: number;
  machine_hits: number;
}

const hrefsOf = (email: ReceivedEmail) => [...String(email.parsed.html).matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));

describe('tracking at render and engagement records', () => {
  let harness: AutomationHarness;
  let secret: string;
  beforeAll(async () => {
    harness = await startAutomationHarness('tracking');
    secret = trackingSecret(undefined, harness.env.INTERNAL_SIGNING_SECRET!);
  });
  afterAll(async () => harness.stop());

  const clickPrefix = () => `${harness.env.PUBLIC_BASE_URL}/t/c/`;
  const openPrefix = () => `${harness.env.PUBLIC_BASE_URL}/t/o/`;

  async function signup(account: number, contact: ContactSnapshot = newContact({ first_name: 'Ada' })) {
    const [workflow] = await harness.importWorkflow(account, welcome);
    await harness.publishEvent(account, contact, 'signup');
    const email = await waitFor(() => harness.sink.messagesTo(contact.email)[0], { what: `email to ${contact.email}` });
    await harness.waitForState(account, contact.id, 'welcome', 'sent');
    return { email, contact, workflowId: workflow!.id };
  }

  const sendsRow = async (account: number, contactId: number) =>
    (
      await harness.pool.query<Ledger>(
        'SELECT id, subject, first_opened_at, first_clicked_at, opens, clicks, machine_hits FROM sends WHERE account_id = $1 AND contact_id = $2',
        [account, contactId],
      )
    ).rows[0]!;

  async function hit<C extends typeof emailOpenedV1 | typeof emailClickedV1>(contract: C, payload: MessageOf<C>): Promise<void> {
    await harness.publish(contract, payload);
    await harness.waitProcessed(`engagement:${payload.hit_id}`);
  }

  it('rewrites a workflow email\'s links to click URLs naming the original address; the unsubscribe link, mailto: and the text part are left alone; no pixel by default', async () => {
    const account = newAccountId();
    const { email, contact, workflowId } = await signup(account);
    const [offer, mailto, unsubscribe] = hrefsOf(email);
    expect(offer!.startsWith(clickPrefix())).toBe(true);
    const target = verifyTrackingToken(offer!.slice(clickPrefix().length), secret);
    expect(target).toMatchObject({ kind: 'click', url: 'https://shop.test/offer?x=1&y=2', link: 0 });
    expect(target!.email).toMatchObject({ accountId: account, contactId: contact.id, workflowId, stepId: 'welcome' });
    expect(Math.abs(target!.email.sentAt - Date.now() / 1000)).toBeLessThan(60);
    expect(mailto).toBe('mailto:help@shop.test');
    expect(unsubscribe).toBe(email.headers.get('list-unsubscribe')!.slice(1, -1));
    expect(email.parsed.text).toContain('https://shop.test/offer?x=1&y=2');
    expect(email.parsed.text).not.toContain('/t/c/');
    expect(String(email.parsed.html)).not.toContain(openPrefix());
    expect((await sendsRow(account, contact.id)).subject).toBe('Welcome, Ada');
  });

  it('answers and saves the tracking settings (422 on a bad body); open tracking adds the pixel, tracking off leaves the email untracked', async () => {
    const account = newAccountId();
    expect(await harness.call(account, 'GET', '/tracking-settings')).toEqual({ status: 200, body: { data: { link_tracking: true, open_tracking: false } } });
    expect((await harness.call(account, 'PUT', '/tracking-settings', { link_tracking: 'yes', open_tracking: true })).status).toBe(422);
    expect((await harness.call(account, 'PUT', '/tracking-settings', { link_tracking: true })).status).toBe(422);
    expect(await harness.call(account, 'PUT', '/tracking-settings', { link_tracking: true, open_tracking: true })).toEqual({
      status: 200,
      body: { data: { link_tracking: true, open_tracking: true } },
    });
    const { email, contact } = await signup(account);
    const pixel = new RegExp(`<img src="${openPrefix().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}([A-Za-z0-9_-]+)"`).exec(String(email.parsed.html));
    expect(pixel).not.toBeNull();
    expect(verifyTrackingToken(pixel![1]!, secret)).toMatchObject({ kind: 'open', email: { accountId: account, contactId: contact.id, stepId: 'welcome' } });

    const untracked = newAccountId();
    await harness.call(untracked, 'PUT', '/tracking-settings', { link_tracking: false, open_tracking: false });
    const plain = await signup(untracked);
    expect(hrefsOf(plain.email)[0]).toBe('https://shop.test/offer?x=1&y=2');
    expect(String(plain.email.parsed.html)).not.toMatch(/\/t\/[co]\//);
  });

  it('records a reader\'s open and click once each (a redelivered hit changes nothing), a machine\'s only as a machine hit, and answers step stats and the contact\'s emails', async () => {
    const account = newAccountId();
    const { contact, workflowId } = await signup(account);
    const base = { account_id: account, contact_id: contact.id, workflow_id: workflowId, step: 'welcome', sent_at: new Date().toISOString(), occurred_at: new Date().toISOString() };

    await hit(emailOpenedV1, { ...base, hit_id: randomUUID(), machine: true });
    expect(await sendsRow(account, contact.id)).toMatchObject({ machine_hits: 1, opens: 0, clicks: 0, first_opened_at: null, first_clicked_at: null });

    const click = { ...base, hit_id: randomUUID(), machine: false, url: 'https://shop.test/offer?x=1&y=2', link: 0 };
    await hit(emailClickedV1, click);
    await hit(emailClickedV1, click);
    const row = await sendsRow(account, contact.id);
    expect(row).toMatchObject({ machine_hits: 1, opens: 0, clicks: 1 });
    expect(row.first_clicked_at).toEqual(new Date(click.occurred_at));
    expect(row.first_opened_at).toEqual(new Date(click.occurred_at));
    const links = await harness.pool.query('SELECT ledger, url, clicks FROM send_link_clicks WHERE send_id = $1', [row.id]);
    expect(links.rows).toEqual([{ ledger: 'workflow', url: click.url, clicks: 1 }]);

    const stats = await harness.call<{ data: unknown }>(account, 'GET', `/workflows/${workflowId}/step-stats`);
    const figures = { sent: 1, opened: 1, clicked: 1, unsubscribed: 0 };
    expect(stats).toEqual({ status: 200, body: { data: [{ step_id: 'welcome', last_7_days: figures, last_30_days: figures }] } });
    expect((await harness.call(newAccountId(), 'GET', `/workflows/${workflowId}/step-stats`)).status).toBe(404);

    const emails = await harness.call<{ data: unknown[] }>(account, 'GET', `/contacts/${contact.id}/emails`);
    expect(emails.body.data).toEqual([
      {
        kind: 'workflow',
        workflow_id: workflowId,
        workflow_name: 'Tracked welcome',
        step_id: 'welcome',
        campaign_id: null,
        subject: 'Welcome, Ada',
        outcome: 'sent',
        sent_at: expect.any(String),
        first_opened_at: new Date(click.occurred_at).toISOString(),
        first_clicked_at: new Date(click.occurred_at).toISOString(),
        clicks: 1,
      },
    ]);
    const dashboard = await harness.call<{ data: { daily: Array<Record<string, unknown>> } }>(account, 'GET', '/dashboard');
    expect(dashboard.body.data.daily.at(-1)).toMatchObject({ sent: 1, opened: 1, clicked: 1 });
  });

  it('counts an unsubscribe through a workflow email\'s link on its step', async () => {
    const account = newAccountId();
    const { email, workflowId } = await signup(account);
    const link = email.headers.get('list-unsubscribe')!.slice(1, -1);
    expect((await fetch(link, { method: 'POST' })).status).toBe(200);
    const stats = await harness.call<{ data: Array<{ last_30_days: { unsubscribed: number } }> }>(account, 'GET', `/workflows/${workflowId}/step-stats`);
    expect(stats.body.data[0]!.last_30_days).toEqual({ sent: 1, opened: 0, clicked: 0, unsubscribed: 1 });
  });

  it('tracks a campaign email\'s links with its campaign, stores its subject, and records its click', async () => {
    const account = newAccountId();
    const { contact } = await signup(account);
    const campaignId = newAccountId();
    await harness.publish(campaignSendRequestedV1, {
      account_id: account,
      campaign_id: campaignId,
      content: { subject: 'News for {{ first_name }}', preview_text: '', html, text: null, from_name: null, from_address: null },
      audience: { tags: [], match: 'any' },
      rate_per_second: null,
      occurred_at: new Date().toISOString(),
    });
    const email = await waitFor(() => harness.sink.messagesTo(contact.email).find((message) => message.parsed.subject === 'News for Ada'), { what: 'campaign email' });
    const [offer, , unsubscribe] = hrefsOf(email);
    const target = verifyTrackingToken(offer!.slice(clickPrefix().length), secret);
    expect(target).toMatchObject({ kind: 'click', url: 'https://shop.test/offer?x=1&y=2', email: { accountId: account, contactId: contact.id, campaignId } });
    expect(unsubscribe).toContain('/unsubscribe/c1.');
    const ledger = () =>
      harness.pool.query<Ledger & { state: string }>('SELECT id, state, subject, clicks, first_clicked_at FROM campaign_sends WHERE campaign_id = $1', [campaignId]);
    await waitFor(async () => ((await ledger()).rows[0]?.state === 'sent' ? true : undefined), { what: 'campaign row sent' });
    expect((await ledger()).rows[0]).toMatchObject({ subject: 'News for Ada', clicks: 0 });

    const occurredAt = new Date().toISOString();
    await hit(emailClickedV1, {
      hit_id: randomUUID(),
      account_id: account,
      contact_id: contact.id,
      campaign_id: campaignId,
      sent_at: occurredAt,
      occurred_at: occurredAt,
      machine: false,
      url: target!.kind === 'click' ? target!.url : '',
      link: 0,
    });
    expect((await ledger()).rows[0]).toMatchObject({ clicks: 1, first_clicked_at: new Date(occurredAt) });
    const emails = await harness.call<{ data: Array<{ kind: string; campaign_id: number | null; subject: string; clicks: number }> }>(account, 'GET', `/contacts/${contact.id}/emails`);
    expect(emails.body.data[0]).toMatchObject({ kind: 'campaign', campaign_id: campaignId, workflow_id: null, subject: 'News for Ada', outcome: 'sent', clicks: 1 });
    expect(emails.body.data).toHaveLength(2);
  });

  it('leaves the double opt-in email untracked, even with open tracking on', async () => {
    const account = newAccountId();
    await harness.call(account, 'PUT', '/tracking-settings', { link_tracking: true, open_tracking: true });
    const contact = newContact({ subscribed: false });
    await harness.publish(contactConfirmationRequestedV1, { account_id: account, contact, occurred_at: new Date().toISOString() });
    const email = await waitFor(() => harness.sink.messagesTo(contact.email)[0], { what: 'confirmation email' });
    expect(hrefsOf(email)[0]).toMatch(new RegExp(`^${harness.env.PUBLIC_BASE_URL}/confirm/v1\\.`));
    expect(String(email.parsed.html)).not.toMatch(/\/t\/[co]\//);
  });

  it('leaves a campaign test email untracked', async () => {
    const to = `tester${randomUUID().slice(0, 8)}@example.test`;
    await harness.publish(campaignTestRequestedV1, {
      account_id: newAccountId(),
      campaign_id: newAccountId(),
      to,
      content: { subject: 'Draft', preview_text: '', html, text: null, from_name: null, from_address: null },
      occurred_at: new Date().toISOString(),
    });
    const email = await waitFor(() => harness.sink.messagesTo(to)[0], { what: 'test email' });
    expect(hrefsOf(email)[0]).toBe('https://shop.test/offer?x=1&y=2');
    expect(String(email.parsed.html)).not.toMatch(/\/t\/[co]\//);
  });
});
