import { campaignSendRequestedV1 } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import { applyContactSnapshots } from '../src/data-access/contacts.repository';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

describe('campaign progress', () => {
  let harness: AutomationHarness;
  const refused = new Map<string, { code: number; message: string }>();
  beforeAll(async () => {
    harness = await startAutomationHarness('campaign_progress', { env: { SEND_MAX_ATTEMPTS: '2' } });
    harness.sink.onRecipient = (address) => {
      const refusal = refused.get(address);
      return refusal ? { accept: false, ...refusal } : { accept: true };
    };
  });
  afterAll(async () => harness.stop());

  it('counts as bounced only the failures the recipient\'s server refused with a 5xx, not retries given up on', async () => {
    const account = newAccountId();
    const [delivered, bounced, retried] = [newContact(), newContact(), newContact()];
    await applyContactSnapshots(harness.pool, [delivered, bounced, retried].map((contact) => ({ accountId: account, contact, factAt: new Date().toISOString() })));
    refused.set(bounced.email, { code: 550, message: '5.1.1 mailbox does not exist' });
    refused.set(retried.email, { code: 451, message: '4.7.1 try again later' });
    const campaignId = newAccountId();
    await harness.publish(campaignSendRequestedV1, {
      account_id: account,
      campaign_id: campaignId,
      content: { subject: 'News', preview_text: '', html: '<p>News</p>', text: null, from_name: null, from_address: null },
      audience: { tags: [], match: 'any' },
      rate_per_second: null,
      occurred_at: new Date().toISOString(),
    });

    const final = await waitFor(() => harness.progress.find((message) => message.campaign_id === campaignId && message.finished), { what: 'the final counts' });
    expect(final).toMatchObject({ total_recipients: 3, sent: 1, failed: 2, bounced: 1, skipped: 0 });
    const reports = harness.progress.filter((message) => message.campaign_id === campaignId);
    expect(reports.every((message) => message.bounced !== undefined && message.bounced <= message.failed)).toBe(true);
  });
});
