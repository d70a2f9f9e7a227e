import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';
import { createCampaign, uniqueAccountId } from './factories/campaigns';

let harness: CampaignsHarness;
beforeAll(async () => {
  harness = await startCampaignsHarness();
});
afterAll(() => harness.stop());

describe('campaigns are read-only', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s on the collection and on a campaign answers 405 JSON with Allow, and changes nothing', async (method) => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, { name: 'Keep me' });
    for (const path of ['/api/v1/campaigns', `/api/v1/campaigns/${id}`, '/api/v1/campaigns/not-a-number']) {
      const response = await harness.request(account, path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Changed', status: 'sent' }),
      });
      expect({ path, status: response.status }).toEqual({ path, status: 405 });
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ error: 'method not allowed' });
    }
    const after = await harness.request(account, `/api/v1/campaigns/${id}`);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: { name: string; status: string } }).data).toMatchObject({ name: 'Keep me', status: 'draft' });
    const list = (await (await harness.request(account, '/api/v1/campaigns')).json()) as { meta: { total_count: number } };
    expect(list.meta.total_count).toBe(1);
  });

  it('HEAD is served like GET, without a body', async () => {
    const account = uniqueAccountId();
    const response = await harness.request(account, '/api/v1/campaigns', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('the database refuses a status outside the spec’s list, whatever the code does', async () => {
    await expect(
      harness.pool.query("INSERT INTO campaigns (account_id, name, status) VALUES ($1, 'x', 'archived')", [uniqueAccountId()]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'campaigns_status_check' });
  });
});
