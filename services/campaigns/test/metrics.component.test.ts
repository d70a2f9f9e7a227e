import { randomUUID } from 'node:crypto';
import { Broker, createLogger, emailSentV1, QUEUES } from '@mailer/shared';
import { metricValue, scrapeMetrics, waitFor } from '@mailer/shared/testing';
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
  it('counts requests by route template and status, and consumed send results by queue and outcome', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, { status: 'sending' });
    expect((await harness.request(account, `/api/v1/campaigns/${id}`)).status).toBe(200);
    expect((await harness.request(account, `/api/v1/campaigns/${id}`)).status).toBe(200);
    expect((await harness.request(account, `/api/v1/campaigns/${id + 1_000_000}`)).status).toBe(404);
    expect((await harness.request(account, '/api/v1/campaigns')).status).toBe(200);
    const messageIds = [randomUUID(), randomUUID()];
    for (const messageId of messageIds) {
      await automation.publish(
        emailSentV1,
        {
          account_id: account,
          contact_id: 1,
          campaign_id: id,
          workflow: 'campaign',
          step: 'send',
          message_id: `<${randomUUID()}@mailer.test>`,
          outcome: 'sent',
          occurred_at: new Date().toISOString(),
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
    const queue = QUEUES.campaignsSendResults.name;
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'ack' })).toBe(2);
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'dead-letter' })).toBeUndefined();
    // No identifier ever becomes a label value.
    expect(text).not.toContain(`/campaigns/${id}`);
  });
});
