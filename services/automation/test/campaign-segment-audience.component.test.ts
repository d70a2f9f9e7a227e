import { campaignSendRequestedV1, QUEUES, type CampaignAudience, type ContactSnapshot } from '@mailer/shared';
import { metricValue, scrapeMetrics, waitFor } from '@mailer/testing';
import { applyContactSnapshots, markContactDeleted } from '../src/data-access/contacts.repository';
import { startContactsStandIn, type ContactsStandIn } from './support/contacts-stand-in';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const content = { subject: 'News', preview_text: '', html: '<p>News</p>', text: null, from_name: null, from_address: null };

describe('a campaign sent to a segment', () => {
  let contacts: ContactsStandIn;
  let harness: AutomationHarness;
  beforeAll(async () => {
    contacts = await startContactsStandIn();
    harness = await startAutomationHarness('segment_audience', { env: { CONTACTS_SERVICE_URL: contacts.url } });
  });
  afterAll(async () => {
    await harness.stop();
    await contacts.close();
  });

  async function project(accountId: number, people: ContactSnapshot[]) {
    await applyContactSnapshots(harness.pool, people.map((contact) => ({ accountId, contact, factAt: new Date().toISOString() })));
  }

  const requestSend = (accountId: number, campaignId: number, audience: CampaignAudience) =>
    harness.publish(campaignSendRequestedV1, {
      account_id: accountId,
      campaign_id: campaignId,
      content,
      audience,
      rate_per_second: null,
      occurred_at: new Date().toISOString(),
    });

  const ledger = async (campaignId: number) =>
    (await harness.pool.query<{ contact_id: string; state: string }>('SELECT contact_id, state FROM campaign_sends WHERE campaign_id = $1 ORDER BY contact_id', [campaignId])).rows.map(
      (row) => Number(row.contact_id),
    );
  const delivery = async (campaignId: number) =>
    (await harness.pool.query<{ state: string; failure_reason: string | null }>('SELECT state, failure_reason FROM campaign_deliveries WHERE campaign_id = $1', [campaignId])).rows[0];
  const requestsFor = (segmentId: number) => contacts.requests.filter((request) => request.segmentId === segmentId);

  it('fixes the recipients as the segment\'s members, every page read with the account\'s signed identity, tags ignored, and emails each once', async () => {
    const account = newAccountId();
    const members = [newContact(), newContact(), newContact(), newContact(), newContact()];
    const outsider = newContact({ tags: ['news'] });
    await project(account, [...members, outsider]);
    const segmentId = newAccountId();
    contacts.setSegment(account, segmentId, members.map((contact) => contact.id));
    const campaignId = newAccountId();
    await requestSend(account, campaignId, { tags: ['news'], match: 'any', segment_id: segmentId });

    await waitFor(async () => ((await ledger(campaignId)).length === members.length ? true : undefined), { what: 'the ledger of the segment send' });
    expect(await ledger(campaignId)).toEqual(members.map((contact) => contact.id).sort((a, b) => a - b));
    // Five members in pages of two: three pages, each after the last id of the one before.
    const pages = requestsFor(segmentId);
    expect(pages.map((page) => page.after)).toEqual(['0', String(members[1]!.id), String(members[3]!.id)]);
    expect(pages.every((page) => page.accountId === account && page.limit === '5000' && page.status === 200)).toBe(true);
    for (const contact of members) await waitFor(() => harness.sink.messagesTo(contact.email)[0], { what: `email to ${contact.email}` });
    expect(harness.sink.messagesTo(outsider.email)).toHaveLength(0);
    expect(members.map((contact) => harness.sink.messagesTo(contact.email).length)).toEqual([1, 1, 1, 1, 1]);
  });

  it('still applies consent: a member unsubscribed, bounced, deleted, suppressed, of another account or unknown to automation gets no row', async () => {
    const account = newAccountId();
    const welcome = newContact();
    const unsubscribed = newContact({ subscribed: false });
    const bounced = newContact({ bounced: true });
    const deleted = newContact();
    const suppressed = newContact({ suppression: 'complained' });
    const elsewhere = newContact();
    const unknown = newContact();
    await project(account, [welcome, unsubscribed, bounced, deleted, suppressed]);
    await project(newAccountId(), [elsewhere]);
    await markContactDeleted(harness.pool, account, deleted.id, deleted.email, new Date().toISOString());
    const segmentId = newAccountId();
    contacts.setSegment(account, segmentId, [welcome, unsubscribed, bounced, deleted, suppressed, elsewhere, unknown].map((contact) => contact.id));
    const campaignId = newAccountId();
    await requestSend(account, campaignId, { tags: [], match: 'any', segment_id: segmentId });

    await waitFor(async () => ((await delivery(campaignId))?.state === 'sending' ? true : undefined), { what: 'delivery started' });
    expect(await ledger(campaignId)).toEqual([welcome.id]);
    await waitFor(() => harness.sink.messagesTo(welcome.email)[0], { what: 'the one email' });
  });

  it('while contacts answers 503, writes nothing and asks again; once it answers, the send starts with the members then', async () => {
    const account = newAccountId();
    const members = [newContact(), newContact(), newContact()];
    await project(account, members);
    const segmentId = newAccountId();
    contacts.setSegment(account, segmentId, members.map((contact) => contact.id));
    contacts.setDown(true);
    const campaignId = newAccountId();
    try {
      await requestSend(account, campaignId, { tags: [], match: 'any', segment_id: segmentId });
      await waitFor(() => (requestsFor(segmentId).length >= 3 ? true : undefined), { what: 'three tries while contacts is down' });
      expect(requestsFor(segmentId).every((request) => request.status === 503)).toBe(true);
      expect(await delivery(campaignId)).toBeUndefined();
      expect(await ledger(campaignId)).toEqual([]);
    } finally {
      contacts.setDown(false);
    }
    await waitFor(async () => ((await ledger(campaignId)).length === members.length ? true : undefined), { timeoutMs: 15_000, what: 'the send after contacts came back' });
    expect(await delivery(campaignId)).toEqual({ state: 'sending', failure_reason: null });
    // Retried in place, unacked: the outage spent none of the request's deliveries (a requeue would).
    const outcome = (name: string) => metricValue(metrics, 'mailer_queue_messages_total', { queue: QUEUES.automationCampaignCommands.name, outcome: name });
    const metrics = await scrapeMetrics(harness.url);
    expect([outcome('requeue'), outcome('dead-letter')]).toEqual([undefined, undefined]);
    for (const contact of members) await waitFor(() => harness.sink.messagesTo(contact.email)[0], { what: `email to ${contact.email}` });
  });

  it('a segment contacts no longer has fails the delivery "segment not found", with no recipients, and reports it', async () => {
    const account = newAccountId();
    await project(account, [newContact()]);
    const segmentId = newAccountId();
    const campaignId = newAccountId();
    await requestSend(account, campaignId, { tags: [], match: 'any', segment_id: segmentId });

    await waitFor(async () => (await delivery(campaignId)) ?? undefined, { what: 'the failed delivery' });
    expect(await delivery(campaignId)).toEqual({ state: 'failed', failure_reason: 'segment not found' });
    expect(await ledger(campaignId)).toEqual([]);
    expect(requestsFor(segmentId).map((request) => request.status)).toEqual([404]);
    const report = await waitFor(() => harness.progress.find((message) => message.campaign_id === campaignId), { what: 'progress of the failed delivery' });
    expect(report).toMatchObject({ total_recipients: 0, sent: 0, failure_reason: 'segment not found' });
  });

  it('a redelivered send request keeps the recipients fixed at the start: contacts is not asked again', async () => {
    const account = newAccountId();
    const first = newContact();
    const later = newContact();
    await project(account, [first, later]);
    const segmentId = newAccountId();
    contacts.setSegment(account, segmentId, [first.id]);
    const campaignId = newAccountId();
    await requestSend(account, campaignId, { tags: [], match: 'any', segment_id: segmentId });
    await waitFor(async () => ((await ledger(campaignId)).length === 1 ? true : undefined), { what: 'the first request' });
    const asked = requestsFor(segmentId).length;

    contacts.setSegment(account, segmentId, [first.id, later.id]);
    await requestSend(account, campaignId, { tags: [], match: 'any', segment_id: segmentId });
    // The marker: a later command on the same queue (prefetch 1) is handled after the copy.
    const marker = newAccountId();
    await requestSend(account, marker, { tags: [], match: 'any' });
    await waitFor(async () => ((await delivery(marker)) ? true : undefined), { what: 'the command after the copy' });
    expect(await ledger(campaignId)).toEqual([first.id]);
    expect(requestsFor(segmentId)).toHaveLength(asked);
  });
});
