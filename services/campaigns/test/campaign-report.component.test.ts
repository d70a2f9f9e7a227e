import { createCampaign, uniqueAccountId } from './factories/campaigns';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';

let harness: CampaignsHarness;
beforeAll(async () => {
  harness = await startCampaignsHarness();
});
afterAll(() => harness.stop());

const zeroTimeline = Array.from({ length: 48 }, (_, hour) => ({ hour, opens: 0, clicks: 0 }));

describe('GET /internal/v1/campaigns/:id/report', () => {
  it('answers a draft with exactly the report shape, all zeros and 48 empty hours', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, { name: 'Not yet' });
    const response = await harness.request(account, `/internal/v1/campaigns/${id}/report`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        campaign_id: id,
        name: 'Not yet',
        status: 'draft',
        total_recipients: 0,
        sent: 0,
        delivered: 0,
        bounced: 0,
        failed: 0,
        unsubscribed: 0,
        opened_unique: 0,
        opened_total: 0,
        clicked_unique: 0,
        clicked_total: 0,
        machine_opens: 0,
        machine_clicks: 0,
        open_rate: 0,
        click_rate: 0,
        unsubscribe_rate: 0,
        bounce_rate: 0,
        timeline: zeroTimeline,
        links: [],
      },
    });
  });

  it('reports the sending counts, and rates as fractions of delivered', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, {
      status: 'sending',
      total_recipients: 250,
      emails_sent: 200,
      emails_failed: 30,
      unsubscribes_count: 4,
    });
    await harness.pool.query('UPDATE campaigns SET emails_bounced = 10, started_at = now() WHERE id = $1', [id]);
    await harness.pool.query(
      `INSERT INTO campaign_engagement_contacts (campaign_id, contact_id, first_open_at, first_click_at, opens, clicks)
       SELECT $1, n, now(), CASE WHEN n <= 10 THEN now() END, 2, CASE WHEN n <= 10 THEN 1 ELSE 0 END FROM generate_series(1, 50) AS n`,
      [id],
    );
    const response = await harness.request(account, `/internal/v1/campaigns/${id}/report`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({
      status: 'sending',
      total_recipients: 250,
      sent: 200,
      // A bounce is refused at RCPT: counted in failed, never in sent.
      delivered: 200,
      bounced: 10,
      failed: 30,
      unsubscribed: 4,
      opened_unique: 50,
      opened_total: 100,
      clicked_unique: 10,
      clicked_total: 10,
      open_rate: 0.25,
      click_rate: 0.05,
      unsubscribe_rate: 0.02,
      bounce_rate: 0.05,
    });
    expect((data.timeline as unknown[])[0]).toEqual({ hour: 0, opens: 50, clicks: 10 });
  });

  it('another account’s campaign and an unknown or malformed id are 404 with the same body', async () => {
    const owner = uniqueAccountId();
    const id = await createCampaign(harness.pool, owner, { status: 'sent', emails_sent: 3 });
    const bodies = [];
    for (const [account, path] of [
      [uniqueAccountId(), `/internal/v1/campaigns/${id}/report`],
      [owner, `/internal/v1/campaigns/${id + 1_000_000}/report`],
      [owner, '/internal/v1/campaigns/abc/report'],
      [owner, '/internal/v1/campaigns/0/report'],
    ] as const) {
      const response = await harness.request(account, path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      bodies.push(await response.json());
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body)))).toEqual(new Set([JSON.stringify({ error: 'campaign not found' })]));
    expect((await harness.request(owner, `/internal/v1/campaigns/${id}/report`)).status).toBe(200);
  });

  it('refuses an unsigned request with 401', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account);
    expect((await fetch(`${harness.service.url}/internal/v1/campaigns/${id}/report`)).status).toBe(401);
  });

  it('leaves GET /api/v1/campaigns/:id in the spec’s shape', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, { status: 'sent', emails_sent: 5 });
    const { data } = (await (await harness.request(account, `/api/v1/campaigns/${id}`)).json()) as { data: Record<string, unknown> };
    expect(Object.keys(data).sort()).toEqual(
      ['id', 'name', 'title', 'status', 'preview_text', 'emails_sent', 'emails_failed', 'total_recipients', 'unsubscribes_count', 'send_at', 'sent_at', 'created_at', 'updated_at'].sort(),
    );
  });
});
