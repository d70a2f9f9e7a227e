import { randomUUID } from 'node:crypto';
import { Broker, campaignProgressV1, createLogger, QUEUES } from '@mailer/shared';
import { metricValue, scrapeMetrics, waitFor } from '@mailer/testing';
import { createCampaign, uniqueAccountId } from './factories/campaigns';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';

let harness: CampaignsHarness;
let automation: Broker;
beforeAll(async () => {
  harness = await startCampaignsHarness();
  // Stands in for the automation service: same broker namespace, same contract, its own connection.
  automation = Broker.start({
    url: harness.config.AMQP_URL,
    namespace: harness.config.BROKER_NAMESPACE,
    logger: createLogger('automation', { level: 'silent' }),
    connectionName: 'test-automation-metrics',
  });
  await Promise.all([automation.ready(), harness.service.broker.ready()]);
});
afterAll(async () => {
  await automation.close();
  await harness.stop();
});

describe('campaigns /metrics', () => {
  it('counts requests by route template and status, and consumed progress counts by queue and outcome', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, { status: 'sending' });
    expect((await harness.request(account, `/api/v1/campaigns/${id}`)).status).toBe(200);
    expect((await harness.request(account, `/api/v1/campaigns/${id}`)).status).toBe(200);
    expect((await harness.request(account, `/api/v1/campaigns/${id + 1_000_000}`)).status).toBe(404);
    expect((await harness.request(account, '/api/v1/campaigns')).status).toBe(200);
    const messageIds = [randomUUID(), randomUUID()];
    for (const [index, messageId] of messageIds.entries()) {
      await automation.publish(
        campaignProgressV1,
        {
          account_id: account,
          campaign_id: id,
          total_recipients: 10,
          sent: index + 1,
          failed: 0,
          skipped: 0,
          unsubscribes: 0,
          finished: false,
          failure_reason: null,
          control_version: 0,
          counted_at: Date.now() * 1000 + index,
        },
        { messageId },
      );
    }
    await waitFor(() => messageIds.every((messageId) => harness.outcomes.some((o) => o.messageId === messageId)) || undefined, {
      what: 'both results settled',
    });

    const text = await scrapeMetrics(harness.service.url);
    const one = { method: 'GET', route: '/api/v1/campaigns/:id' };
    expect(metricValue(text, 'http_requests_total', { ...one, status: '200' })).toBe(2);
    expect(metricValue(text, 'http_requests_total', { ...one, status: '404' })).toBe(1);
    expect(metricValue(text, 'http_request_duration_seconds_count', { ...one, status: '200' })).toBe(2);
    expect(metricValue(text, 'http_requests_total', { method: 'GET', route: '/api/v1/campaigns', status: '200' })).toBe(1);
    const queue = QUEUES.campaignsProgress.name;
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'ack' })).toBe(2);
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'dead-letter' })).toBeUndefined();
    // No identifier ever becomes a label value.
    expect(text).not.toContain(`/campaigns/${id}`);
  });
});
