import { randomUUID } from 'node:crypto';
import { Broker, campaignProgressV1, createLogger, type MessageOf } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { createCampaign, uniqueAccountId } from './factories/campaigns';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';

let harness: CampaignsHarness;
let automation: Broker;
beforeAll(async () => {
  harness = await startCampaignsHarness();
  // Stands in for the automation service: same namespace, same contract, its own connection.
  automation = Broker.start({
    url: harness.config.AMQP_URL,
    namespace: harness.config.BROKER_NAMESPACE,
    logger: createLogger('automation', { level: 'silent' }),
    connectionName: 'test-automation-progress',
  });
  await Promise.all([automation.ready(), harness.service.broker.ready()]);
});
afterAll(async () => {
  await automation.close();
  await harness.stop();
});

type Progress = MessageOf<typeof campaignProgressV1>;

async function publishProgress(progress: Progress) {
  const messageId = randomUUID();
  await automation.publish(campaignProgressV1, progress, { messageId });
  await waitFor(() => harness.outcomes.find((o) => o.messageId === messageId), { what: 'the progress settled' });
}

const bouncedOf = async (id: number) =>
  (await harness.pool.query<{ emails_bounced: number }>('SELECT emails_bounced FROM campaigns WHERE id = $1', [id])).rows[0]!.emails_bounced;

describe('campaign.progress.v1: bounced', () => {
  it('keeps the newest count’s bounces on the campaign; a count without them leaves those counted before', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, { status: 'sending' });
    const counts = (counted_at: number, fields: Partial<Progress>): Progress => ({
      account_id: account,
      campaign_id: id,
      total_recipients: 20,
      sent: 10,
      failed: 4,
      skipped: 0,
      unsubscribes: 0,
      finished: false,
      failure_reason: null,
      control_version: 0,
      counted_at,
      ...fields,
    });
    const now = Date.now() * 1000;
    await publishProgress(counts(now, { bounced: 3 }));
    expect(await bouncedOf(id)).toBe(3);
    // An older count (reordered) changes nothing.
    await publishProgress(counts(now - 10, { bounced: 1 }));
    expect(await bouncedOf(id)).toBe(3);
    await publishProgress(counts(now + 10, {}));
    expect(await bouncedOf(id)).toBe(3);
    await publishProgress(counts(now + 20, { sent: 15, failed: 5, bounced: 4 }));
    const { data } = (await (await harness.request(account, `/internal/v1/campaigns/${id}/report`)).json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({ sent: 15, failed: 5, bounced: 4, delivered: 15 });
  });
});
