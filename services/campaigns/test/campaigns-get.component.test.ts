import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';
import { createCampaign, uniqueAccountId } from './factories/campaigns';

let harness: CampaignsHarness;
beforeAll(async () => {
  harness = await startCampaignsHarness();
});
afterAll(() => harness.stop());

describe('GET /api/v1/campaigns/:id', () => {
  it('answers { data } with the same shape as the list item', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, {
      name: 'Launch',
      title: 'We launched',
      subject: 'never shown',
      status: 'sent',
      sent_at: new Date('2026-05-05T05:05:05.123Z'),
      emails_sent: 3,
    });
    const response = await harness.request(account, `/api/v1/campaigns/${id}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown> };
    const listed = (await (await harness.request(account, '/api/v1/campaigns')).json()) as { data: unknown[] };
    expect(body).toEqual({ data: listed.data[0] });
    expect(body.data).toMatchObject({ id, name: 'Launch', status: 'sent', sent_at: '2026-05-05T05:05:05.123Z', send_at: null });
    expect(body.data).not.toHaveProperty('subject');
    expect(body.data).not.toHaveProperty('account_id');
  });

  it('another account’s campaign is 404 with the same body as an unknown id', async () => {
    const owner = uniqueAccountId();
    const id = await createCampaign(harness.pool, owner, { name: 'Private' });
    const foreign = await harness.request(uniqueAccountId(), `/api/v1/campaigns/${id}`);
    expect(foreign.status).toBe(404);
    const foreignBody = await foreign.json();
    const unknown = await harness.request(owner, `/api/v1/campaigns/${id + 1_000_000}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(foreignBody);
    expect(foreignBody).toEqual({ error: 'campaign not found' });
    // The owner still sees it: the 404 above was isolation, not a missing row.
    expect((await harness.request(owner, `/api/v1/campaigns/${id}`)).status).toBe(200);
  });

  it('a non-numeric, zero or out-of-range id is 404 JSON, not 500', async () => {
    const account = uniqueAccountId();
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999', '%27%20OR%201%3D1']) {
      const response = await harness.request(account, `/api/v1/campaigns/${id}`);
      expect({ id, status: response.status }).toEqual({ id, status: 404 });
      expect(await response.json()).toEqual({ error: 'campaign not found' });
    }
  });

  it('refuses an unsigned request with 401 even for an existing campaign', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account);
    const response = await fetch(`${harness.service.url}/api/v1/campaigns/${id}`);
    expect(response.status).toBe(401);
  });
});
