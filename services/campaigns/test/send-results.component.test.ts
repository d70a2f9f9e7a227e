import { randomUUID } from 'node:crypto';
import { Broker, createLogger, emailSentV1, type MessageOf } from '@mailer/shared';
import { waitFor } from '@mailer/shared/testing';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';
import { createCampaign, uniqueAccountId } from './factories/campaigns';

let harness: CampaignsHarness;
let automation: Broker;
beforeAll(async () => {
  harness = await startCampaignsHarness();
  // Stands in for the automation service: same broker namespace, same contract, its own connection.
  automation = Broker.start({
    url: harness.config.AMQP_URL,
    namespace: harness.config.BROKER_NAMESPACE,
    logger: createLogger('automation', { level: 'silent' }),
    connectionName: 'test-automation',
  });
  await Promise.all([automation.ready(), harness.service.broker.ready()]);
});
afterAll(async () => {
  await automation.close();
  await harness.stop();
});

const result = (overrides: Partial<MessageOf<typeof emailSentV1>>): MessageOf<typeof emailSentV1> => ({
  account_id: 1,
  contact_id: 1,
  workflow: 'campaign',
  step: 'send',
  message_id: `<${randomUUID()}@mailer.test>`,
  outcome: 'sent',
  occurred_at: new Date().toISOString(),
  ...overrides,
});

/** Publishes and waits until the consumer settled that delivery (`times` counts redeliveries of one id). */
async function deliver(payload: MessageOf<typeof emailSentV1>, messageId = randomUUID(), times = 1) {
  for (let i = 0; i < times; i++) await automation.publish(emailSentV1, payload, { messageId });
  return waitFor(() => {
    const settled = harness.outcomes.filter((outcome) => outcome.messageId === messageId);
    return settled.length >= times ? settled.map((outcome) => outcome.outcome) : undefined;
  }, { what: `outcome of ${messageId}` });
}

const counts = async (account: number, id: number) => {
  const response = await harness.request(account, `/api/v1/campaigns/${id}`);
  const { data } = (await response.json()) as { data: { emails_sent: number; emails_failed: number; updated_at: string } };
  return data;
};

describe('email.sent.v1 on campaigns.send-results', () => {
  it('counts a sent and a failed email on the campaign named by campaign_id', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account, { status: 'sending', emails_sent: 5, emails_failed: 1 });
    const before = await counts(account, id);
    expect(await deliver(result({ account_id: account, campaign_id: id, outcome: 'sent' }))).toEqual(['ack']);
    expect(await deliver(result({ account_id: account, campaign_id: id, outcome: 'failed' }))).toEqual(['ack']);
    const after = await counts(account, id);
    expect(after).toMatchObject({ emails_sent: 6, emails_failed: 2 });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  });

  it('a redelivered message (same message id) is counted once', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account);
    const outcomes = await deliver(result({ account_id: account, campaign_id: id }), randomUUID(), 3);
    expect(outcomes).toEqual(['ack', 'ack', 'ack']);
    expect(await counts(account, id)).toMatchObject({ emails_sent: 1, emails_failed: 0 });
  });

  it('a workflow email (no campaign_id) is acknowledged and changes no campaign', async () => {
    const account = uniqueAccountId();
    const id = await createCampaign(harness.pool, account);
    const messageId = randomUUID();
    expect(await deliver(result({ account_id: account }), messageId)).toEqual(['ack']);
    expect(await counts(account, id)).toMatchObject({ emails_sent: 0, emails_failed: 0 });
    const inbox = await harness.pool.query('SELECT 1 FROM processed_messages WHERE message_id = $1', [messageId]);
    expect(inbox.rowCount).toBe(0);
  });

  it('a campaign of another account is an impossible reference: dead-lettered, nothing counted', async () => {
    const owner = uniqueAccountId();
    const id = await createCampaign(harness.pool, owner);
    const messageId = randomUUID();
    expect(await deliver(result({ account_id: uniqueAccountId(), campaign_id: id }), messageId)).toEqual(['dead-letter']);
    expect(await counts(owner, id)).toMatchObject({ emails_sent: 0, emails_failed: 0 });
    // The inbox claim rolled back with the failed update, so a corrected replay could still count.
    const inbox = await harness.pool.query('SELECT 1 FROM processed_messages WHERE message_id = $1', [messageId]);
    expect(inbox.rowCount).toBe(0);
  });
});
