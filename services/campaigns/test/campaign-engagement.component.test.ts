import { createCampaign, uniqueAccountId } from './factories/campaigns';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';
import { startTrackingHits } from './setup/tracking-hits';

let harness: CampaignsHarness;
let hits: Awaited<ReturnType<typeof startTrackingHits>>;
beforeAll(async () => {
  harness = await startCampaignsHarness();
  hits = await startTrackingHits(harness);
});
afterAll(async () => {
  await hits.close();
  await harness.stop();
});

const at = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000).toISOString();

async function report(account: number, id: number) {
  const response = await harness.request(account, `/internal/v1/campaigns/${id}/report`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> & { timeline: Array<{ hour: number; opens: number; clicks: number }> } }).data;
}

/** A sent campaign whose start was `start`, and ids for its readers. */
async function sentCampaign(start: Date) {
  const account = uniqueAccountId();
  const id = await createCampaign(harness.pool, account, { status: 'sent', sent_at: start, emails_sent: 10, total_recipients: 10 });
  return { account, id };
}

describe('campaigns.engagement (email.opened.v1, email.clicked.v1)', () => {
  it('counts a redelivered hit once', async () => {
    const { account, id } = await sentCampaign(new Date());
    const open = await hits.open(hits.hit({ account_id: account, contact_id: 1, campaign_id: id }));
    await hits.open(open);
    await hits.settled();
    expect(harness.engagementOutcomes.filter((o) => o.messageId === open.hit_id).map((o) => o.outcome)).toEqual(['ack', 'ack']);
    expect(await report(account, id)).toMatchObject({ opened_unique: 1, opened_total: 1 });
  });

  it('counts machine hits apart: never as opens or clicks, not on the links', async () => {
    const { account, id } = await sentCampaign(new Date());
    await hits.open(hits.hit({ account_id: account, contact_id: 1, campaign_id: id, machine: true }));
    await hits.click({ ...hits.hit({ account_id: account, contact_id: 1, campaign_id: id, machine: true }), url: 'https://example.test/a', link: 0 });
    await hits.click({ ...hits.hit({ account_id: account, contact_id: 2, campaign_id: id, machine: true }), url: 'https://example.test/a', link: 0 });
    await hits.settled();
    expect(await report(account, id)).toMatchObject({
      opened_unique: 0,
      opened_total: 0,
      clicked_unique: 0,
      clicked_total: 0,
      machine_opens: 1,
      machine_clicks: 2,
      links: [],
    });
  });

  it('a click is an open too when the reader had not opened; opens and clicks are unique per contact and totalled', async () => {
    const { account, id } = await sentCampaign(new Date());
    const url = 'https://example.test/offer';
    // Contact 1 clicks without an open (images off), twice; contact 2 opens twice, then clicks; contact 3 opens.
    await hits.click({ ...hits.hit({ account_id: account, contact_id: 1, campaign_id: id }), url, link: 0 });
    await hits.click({ ...hits.hit({ account_id: account, contact_id: 1, campaign_id: id }), url, link: 0 });
    await hits.open(hits.hit({ account_id: account, contact_id: 2, campaign_id: id }));
    await hits.open(hits.hit({ account_id: account, contact_id: 2, campaign_id: id }));
    await hits.settled();
    await hits.click({ ...hits.hit({ account_id: account, contact_id: 2, campaign_id: id }), url, link: 0 });
    await hits.open(hits.hit({ account_id: account, contact_id: 3, campaign_id: id }));
    await hits.settled();
    expect(await report(account, id)).toMatchObject({
      opened_unique: 3,
      // Contact 1's first click is its one open; contact 2's click follows its two opens and adds none.
      opened_total: 4,
      clicked_unique: 2,
      clicked_total: 3,
      open_rate: 0.3,
      click_rate: 0.2,
    });
  });

  it('counts clicks per link by URL: unique contacts and total, most unique first', async () => {
    const { account, id } = await sentCampaign(new Date());
    const long = `https://example.test/long?${'q=1&'.repeat(1500)}`;
    const clicks: Array<[number, string]> = [
      [1, 'https://example.test/b'],
      [1, 'https://example.test/a'],
      [2, 'https://example.test/a'],
      [2, 'https://example.test/a'],
      [3, 'https://example.test/a'],
      [3, long],
    ];
    for (const [contact, url] of clicks) {
      await hits.click({ ...hits.hit({ account_id: account, contact_id: contact, campaign_id: id }), url, link: 0 });
    }
    await hits.settled();
    expect((await report(account, id)).links).toEqual([
      { url: 'https://example.test/a', unique_clicks: 3, total_clicks: 4 },
      { url: 'https://example.test/b', unique_clicks: 1, total_clicks: 1 },
      { url: long, unique_clicks: 1, total_clicks: 1 },
    ]);
  });

  it('places readers’ first opens and clicks in the hour after the start they came in, for 48 hours', async () => {
    const start = new Date(Date.now() - 3 * 86_400_000);
    const { account, id } = await sentCampaign(start);
    const url = 'https://example.test/x';
    await hits.open(hits.hit({ account_id: account, contact_id: 1, campaign_id: id, occurred_at: at(start, 10) }));
    // A second open of contact 1 in hour 5 is in the totals, not the timeline (its first open was in hour 0).
    await hits.open(hits.hit({ account_id: account, contact_id: 1, campaign_id: id, occurred_at: at(start, 5 * 60 + 1) }));
    await hits.click({ ...hits.hit({ account_id: account, contact_id: 2, campaign_id: id, occurred_at: at(start, 2 * 60 + 30) }), url, link: 0 });
    await hits.open(hits.hit({ account_id: account, contact_id: 3, campaign_id: id, occurred_at: at(start, 47 * 60 + 59) }));
    await hits.open(hits.hit({ account_id: account, contact_id: 4, campaign_id: id, occurred_at: at(start, 48 * 60) }));
    await hits.settled();
    const figures = await report(account, id);
    expect(figures).toMatchObject({ opened_unique: 4, opened_total: 5, clicked_unique: 1 });
    expect(figures.timeline).toHaveLength(48);
    expect(figures.timeline.map((entry) => entry.hour)).toEqual([...Array(48).keys()]);
    expect(figures.timeline.filter((entry) => entry.opens + entry.clicks > 0)).toEqual([
      { hour: 0, opens: 1, clicks: 0 },
      { hour: 2, opens: 1, clicks: 1 },
      { hour: 47, opens: 1, clicks: 0 },
    ]);
  });

  it('acks and ignores a workflow email’s hit and a hit naming another account’s campaign', async () => {
    const { account, id } = await sentCampaign(new Date());
    const workflow = await hits.open(hits.hit({ account_id: account, contact_id: 1, workflow_id: 7, step: 'welcome' }));
    const foreign = await hits.open(hits.hit({ account_id: uniqueAccountId(), contact_id: 1, campaign_id: id }));
    await hits.settled();
    for (const hit of [workflow, foreign]) {
      expect(harness.engagementOutcomes.filter((o) => o.messageId === hit.hit_id).map((o) => o.outcome)).toEqual(['ack']);
    }
    expect(await report(account, id)).toMatchObject({ opened_total: 0, machine_opens: 0 });
    const { rows } = await harness.pool.query('SELECT 1 FROM campaign_engagement_contacts WHERE campaign_id = $1', [id]);
    expect(rows).toEqual([]);
  });
});
