import { createLogger } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { startProduct, type Product } from './stack-harness';
import { campaignDriver, createContacts } from './support/campaign-driver';

const HTML = '<html><body><p>Hi {{ first_name | default: "friend" }}, news for {{ email }}.</p></body></html>';

describe('campaigns that really send (issue #19)', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct({ logger: (s) => createLogger(s, { level: (process.env.E2E_LOG as 'warn' | undefined) ?? 'silent' }), gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '1000000', RATE_LIMIT_KEY_PER_MIN: '1000000', RATE_LIMIT_KEY_PER_HOUR: '10000000' } });
  }, 60_000);
  afterAll(() => product?.stop());
  afterEach(() => {
    product.smtp.onRecipient = () => ({ accept: true });
  });

  const addressesOf = (messages: Array<{ to: string[] }>) => messages.flatMap((message) => message.to).sort();
  const sinkFor = (prefix: string) => product.smtp.messages.filter((message) => message.to.some((to) => to.startsWith(prefix)));

  it('reaches exactly the subscribed, not bounced, not unsubscribed, tag-matching contacts once each; a 550 counts as failed; REST walks draft → approved → sending → sent with the sink\'s counts', async () => {
    const account = await product.anAccountWithKey();
    const drive = campaignDriver(product, account);
    const p = `aud${account.accountId}-`;
    await createContacts(product, account.key, account.accountId, [
      { email: `${p}news@example.test`, subscribed: true, first_name: 'Ada', tags: ['news'] },
      { email: `${p}both@example.test`, subscribed: true, tags: ['News', 'vip'] },
      { email: `${p}vip@example.test`, subscribed: true, tags: ['vip'] },
      { email: `${p}untagged@example.test`, subscribed: true },
      { email: `${p}never@example.test`, subscribed: false, tags: ['news'] },
      { email: `${p}unsub@example.test`, subscribed: true, tags: ['news'] },
      { email: `${p}rejects@example.test`, subscribed: true, tags: ['news'] },
    ]);
    // An unsubscribe through the contacts API (the account holder's "no") before the campaign.
    const unsub = await product.api(account.key, 'GET', `/contacts?q=${p}unsub`);
    const unsubId = ((unsub.body?.data as Array<{ id: number }>)[0]!).id;
    expect((await product.api(account.key, 'PATCH', `/contacts/${unsubId}`, { subscribed: false })).status).toBe(200);
    await waitFor(async () => {
      const { rows } = await product.automation.pool.query<{ subscribed: boolean }>('SELECT subscribed FROM contacts WHERE account_id = $1 AND contact_id = $2', [account.accountId, unsubId]);
      return rows[0]?.subscribed === false ? true : undefined;
    });
    product.smtp.onRecipient = (address) => (address === `${p}rejects@example.test` ? { accept: false, code: 550, message: '5.1.1 no such user' } : { accept: true });

    const id = await drive.create({ name: 'Spring news', title: 'News for {{ first_name | default: "you" }}', preview_text: 'The hidden preheader', html: HTML, audience_tags: ['news'] });
    expect((await drive.rest(id)).status).toBe('draft');
    const preview = await drive.automation('GET', '/audience-count?tag=news');
    expect(preview.body?.data).toEqual({ count: 3 });
    await drive.act(id, 'approve');
    expect((await drive.rest(id)).status).toBe('approved');
    await drive.act(id, 'send');
    const { view, statuses } = await drive.watchUntil(id, (current) => current.status === 'sent');
    expect(statuses).toEqual(['sending', 'sent']);

    const received = sinkFor(p);
    expect(addressesOf(received)).toEqual([`${p}both@example.test`, `${p}news@example.test`]);
    expect(view).toMatchObject({ total_recipients: 3, emails_sent: received.length, emails_failed: 1, sent_at: expect.any(String) });
    const ada = received.find((message) => message.to.includes(`${p}news@example.test`))!;
    expect(ada.parsed.subject).toBe('News for Ada');
    expect(ada.parsed.html).toContain('The hidden preheader');
    expect(ada.parsed.text).toContain('Hi Ada');
    expect(ada.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(ada.headers.get('message-id')).toMatch(/^<[0-9a-f]{40}@/);
    const failed = await drive.recipients(id, 'failed');
    expect(failed).toEqual([expect.objectContaining({ email: `${p}rejects@example.test`, outcome: 'failed', reason: expect.stringContaining('550') })]);

    // The 550 bounced the address: a second campaign to every subscribed contact leaves it out.
    const second = await drive.create({ name: 'Everyone', title: 'Hello', html: '<p>Hello</p>' });
    await drive.act(second, 'approve');
    await drive.act(second, 'send');
    const all = await drive.watchUntil(second, (current) => current.status === 'sent');
    expect(all.view).toMatchObject({ total_recipients: 4, emails_sent: 4, emails_failed: 0 });
    const secondAddresses = addressesOf(sinkFor(p).filter((message) => message.parsed.subject === 'Hello'));
    expect(secondAddresses).toEqual([`${p}both@example.test`, `${p}news@example.test`, `${p}untagged@example.test`, `${p}vip@example.test`]);
  });

  it('narrows to contacts with all of the tags when asked', async () => {
    const account = await product.anAccountWithKey();
    const drive = campaignDriver(product, account);
    const p = `all${account.accountId}-`;
    await createContacts(product, account.key, account.accountId, [
      { email: `${p}a@example.test`, subscribed: true, tags: ['news'] },
      { email: `${p}b@example.test`, subscribed: true, tags: ['news', 'vip'] },
    ]);
    const id = await drive.create({ name: 'VIP news', title: 'VIP', html: '<p>VIP</p>', audience_tags: ['news', 'VIP'], audience_match: 'all' });
    await drive.act(id, 'approve');
    await drive.act(id, 'send');
    const { view } = await drive.watchUntil(id, (current) => current.status === 'sent');
    expect(view).toMatchObject({ total_recipients: 1, emails_sent: 1 });
    expect(addressesOf(sinkFor(p))).toEqual([`${p}b@example.test`]);
  });

  it('pause stops new sends within a second and resume finishes the campaign', async () => {
    const account = await product.anAccountWithKey();
    const drive = campaignDriver(product, account);
    const p = `pause${account.accountId}-`;
    await createContacts(
      product,
      account.key,
      account.accountId,
      Array.from({ length: 60 }, (_, i) => ({ email: `${p}${i}@example.test`, subscribed: true })),
    );
    await drive.setRate(20);
    const id = await drive.create({ name: 'Slow', title: 'Slow', html: '<p>Slow</p>' });
    await drive.act(id, 'approve');
    await drive.act(id, 'send');
    await waitFor(() => (sinkFor(p).length >= 10 ? true : undefined), { timeoutMs: 10_000 });
    const paused = await drive.act(id, 'pause');
    expect(paused).toMatchObject({ status: 'sending', paused: true });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const afterOneSecond = sinkFor(p).length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sinkFor(p).length).toBe(afterOneSecond);
    expect(afterOneSecond).toBeLessThan(60);
    expect((await drive.rest(id)).status).toBe('sending');

    await drive.act(id, 'resume');
    const { view } = await drive.watchUntil(id, (current) => current.status === 'sent', 20_000);
    expect(addressesOf(sinkFor(p))).toHaveLength(60);
    expect(new Set(addressesOf(sinkFor(p))).size).toBe(60);
    expect(view).toMatchObject({ total_recipients: 60, emails_sent: 60, emails_failed: 0 });
  }, 40_000);

  it('starts a scheduled campaign within 2 s of send_at; cancel of a scheduled one returns it to approved', async () => {
    const account = await product.anAccountWithKey();
    const drive = campaignDriver(product, account);
    const p = `sched${account.accountId}-`;
    await createContacts(product, account.key, account.accountId, [{ email: `${p}x@example.test`, subscribed: true }]);

    const cancelled = await drive.create({ name: 'Later', title: 'Later', html: '<p>Later</p>' });
    await drive.act(cancelled, 'approve');
    await drive.act(cancelled, 'send', { send_at: new Date(Date.now() + 60_000).toISOString() });
    expect((await drive.rest(cancelled)).status).toBe('scheduled');
    expect(await drive.act(cancelled, 'cancel')).toMatchObject({ status: 'approved', send_at: null });

    const id = await drive.create({ name: 'Soon', title: 'Soon', html: '<p>Soon</p>' });
    await drive.act(id, 'approve');
    const sendAt = Date.now() + 1500;
    const scheduled = await drive.act(id, 'send', { send_at: new Date(sendAt).toISOString() });
    expect(scheduled.status).toBe('scheduled');
    const [email] = await waitFor(() => (sinkFor(p).length > 0 ? sinkFor(p) : undefined), { timeoutMs: 10_000 });
    expect(email!.receivedAt - sendAt).toBeLessThan(2000);
    expect(email!.receivedAt).toBeGreaterThanOrEqual(sendAt);
    await drive.watchUntil(id, (current) => current.status === 'sent');
  });

  it('refuses illegal transitions with 409 and a clear message, and edits only drafts', async () => {
    const account = await product.anAccountWithKey();
    const drive = campaignDriver(product, account);
    const id = await drive.create({ name: 'Rules', title: 'Rules', html: '<p>Rules</p>' });
    const early = await drive.campaigns('POST', `/campaigns/${id}/send`, {});
    expect(early).toMatchObject({ status: 409, body: { error: expect.stringContaining('cannot send now a campaign that is draft') } });
    expect((await drive.campaigns('POST', `/campaigns/${id}/pause`, {})).status).toBe(409);
    await drive.act(id, 'approve');
    const edit = await drive.campaigns('PATCH', `/campaigns/${id}`, { title: 'Changed' });
    expect(edit.status).toBe(409);
    await drive.act(id, 'return-to-draft');
    expect((await drive.campaigns('PATCH', `/campaigns/${id}`, { title: 'Changed' })).status).toBe(200);
    expect((await drive.campaigns('POST', '/campaigns', { name: '', html: '' })).status).toBe(422);
    expect((await drive.rest(id)).title).toBe('Changed');
  });

  it('keeps the internal API off the gateway: its public routes never reach /internal, and campaigns stay read-only there', async () => {
    const account = await product.anAccountWithKey();
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    for (const path of ['/internal/v1/campaigns', '/api/v1/../internal/v1/campaigns', '/api/v1/campaigns/../../internal/v1/campaigns', '/api/v1/internal/v1/campaigns']) {
      const response = await fetch(`${product.gateway.url}${path}`, { method: 'POST', headers, body: JSON.stringify({ name: 'x', title: 'x', html: '<p>x</p>' }) });
      expect([404, 405]).toContain(response.status);
    }
    expect((await product.api(account.key, 'POST', '/campaigns', { name: 'x' })).status).toBe(405);
    const { rows } = await product.campaigns.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM campaigns WHERE account_id = $1', [account.accountId]);
    expect(rows[0]!.count).toBe(0);
    // Reached directly, the internal API refuses a request without the gateway's signature.
    const direct = await fetch(`${product.campaigns.url}/internal/v1/campaigns`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(direct.status).toBe(401);
  });
});
