import {
  Broker,
  campaignControlV1,
  campaignSendRequestedV1,
  campaignTestRequestedV1,
  createLogger,
  QUEUES,
  type MessageOf,
} from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { uniqueAccountId } from './factories/campaigns';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';

let harness: CampaignsHarness;
let automation: Broker;
const sendRequests: Array<MessageOf<typeof campaignSendRequestedV1>> = [];
beforeAll(async () => {
  harness = await startCampaignsHarness();
  // Stands in for automation: takes campaigns' requests off its queue, as automation would.
  automation = Broker.start({
    url: harness.config.AMQP_URL,
    namespace: harness.config.BROKER_NAMESPACE,
    logger: createLogger('automation', { level: 'silent' }),
    connectionName: 'test-automation-commands',
  });
  automation.consume({
    queue: QUEUES.automationCampaignCommands.name,
    contracts: [campaignSendRequestedV1, campaignControlV1, campaignTestRequestedV1],
    handle: async (message) => {
      if (message.type === campaignSendRequestedV1.type) sendRequests.push(campaignSendRequestedV1.schema.parse(message.payload));
    },
  });
  await Promise.all([automation.ready(), harness.service.broker.ready()]);
});
afterAll(async () => {
  await automation.close();
  await harness.stop();
});

const draft = { name: 'Segment news', title: 'News', html: '<p>News</p>', text_body: null, preview_text: '', audience_tags: ['news'], audience_match: 'any' };

async function call(account: number, method: string, path: string, body?: unknown) {
  const response = await harness.request(account, `/internal/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: { id: number; audience: unknown }; errors?: string[] } };
}

/** Approves and sends a draft, and returns the send request automation received for it. */
async function sendRequestOf(account: number, id: number) {
  expect((await call(account, 'POST', `/campaigns/${id}/approve`, {})).status).toBe(200);
  expect((await call(account, 'POST', `/campaigns/${id}/send`, {})).status).toBe(200);
  return waitFor(() => sendRequests.find((request) => request.campaign_id === id), { what: `the send request of campaign ${id}` });
}

describe('a segment as a campaign’s audience (audience_segment_id)', () => {
  it('keeps the segment through create, read and update, and sends it in the audience', async () => {
    const account = uniqueAccountId();
    const created = await call(account, 'POST', '/campaigns', { ...draft, audience_segment_id: 42 });
    expect(created.status).toBe(201);
    expect(created.body.data.audience).toEqual({ tags: ['news'], match: 'any', segment_id: 42 });
    const id = created.body.data.id;
    expect((await call(account, 'GET', `/campaigns/${id}`)).body.data.audience).toEqual({ tags: ['news'], match: 'any', segment_id: 42 });
    // The app's form sends every field: the segment changes with the rest.
    const updated = await call(account, 'PATCH', `/campaigns/${id}`, { ...draft, audience_segment_id: 43 });
    expect(updated.body.data.audience).toEqual({ tags: ['news'], match: 'any', segment_id: 43 });
    // A change that leaves the segment out keeps it.
    expect((await call(account, 'PATCH', `/campaigns/${id}`, { name: 'Renamed' })).body.data.audience).toMatchObject({ segment_id: 43 });

    const request = await sendRequestOf(account, id);
    expect(request.audience).toEqual({ tags: ['news'], match: 'any', segment_id: 43 });
  });

  it('without a segment (absent or null) the audience is the tags, and the send request names no segment', async () => {
    const account = uniqueAccountId();
    const absent = await call(account, 'POST', '/campaigns', draft);
    expect(absent.body.data.audience).toEqual({ tags: ['news'], match: 'any', segment_id: null });
    const chosen = await call(account, 'POST', '/campaigns', { ...draft, audience_segment_id: 7 });
    const cleared = await call(account, 'PATCH', `/campaigns/${chosen.body.data.id}`, { ...draft, audience_segment_id: null });
    expect(cleared.body.data.audience).toEqual({ tags: ['news'], match: 'any', segment_id: null });

    const request = await sendRequestOf(account, cleared.body.data.id);
    expect(request.audience).toEqual({ tags: ['news'], match: 'any' });
    expect(request.audience).not.toHaveProperty('segment_id');
  });

  it('refuses a segment id that is not a positive integer with 422 naming the field', async () => {
    const account = uniqueAccountId();
    for (const value of [0, -1, 1.5, '42', true, 2 ** 60]) {
      const refused = await call(account, 'POST', '/campaigns', { ...draft, audience_segment_id: value });
      expect({ value, status: refused.status }).toEqual({ value, status: 422 });
      expect(refused.body.errors?.join(' ')).toContain('audience_segment_id');
    }
  });
});
