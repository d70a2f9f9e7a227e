import { QUEUES } from '@mailer/shared';
import { metricValue, scrapeMetrics, waitFor } from '@mailer/testing';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

const workflow = (steps: number) => ({
  name: `Metrics ${steps}`,
  trigger: { event: 'signup' },
  steps: [
    { id: 'a', type: 'email', subject: 'A', text: 'a' },
    { id: 'b', type: 'email', subject: 'B', text: 'b' },
  ].slice(0, steps),
});

describe('automation /metrics', () => {
  let harness: AutomationHarness;
  const scripted = new Map<string, (attempt: number) => { accept: true } | { accept: false; code: number; message: string }>();
  beforeAll(async () => {
    harness = await startAutomationHarness('metrics');
    harness.sink.onRecipient = (address, attempt) => scripted.get(address)?.(attempt) ?? { accept: true };
  });
  afterAll(async () => harness.stop());

  it('counts emails sent, skipped and failed by reason, SMTP round trips by outcome, and consumed events', async () => {
    const twoSteps = newAccountId();
    await harness.importWorkflow(twoSteps, workflow(2));
    const oneStep = newAccountId();
    await harness.importWorkflow(oneStep, workflow(1));
    const delivered = newContact();
    const bouncing = newContact();
    scripted.set(bouncing.email, () => ({ accept: false, code: 550, message: '5.1.1 mailbox does not exist' }));
    const retried = newContact();
    scripted.set(retried.email, (attempt) => (attempt === 1 ? { accept: false, code: 451, message: '4.7.1 later' } : { accept: true }));
    await harness.publishEvent(twoSteps, delivered, 'signup');
    await harness.publishEvent(twoSteps, bouncing, 'signup');
    await harness.publishEvent(oneStep, retried, 'signup');

    // Counted right after the ledger commit: wait for the counters, then check nothing else moved.
    const scrape = () => scrapeMetrics(harness.url);
    const text = await waitFor(
      async () => {
        const current = await scrape();
        return metricValue(current, 'mailer_emails_sent_total') === 3 &&
          metricValue(current, 'mailer_emails_skipped_total', { reason: 'bounced' }) === 1
          ? current
          : undefined;
      },
      { timeoutMs: 15_000, what: '3 sent and 1 skipped' },
    );
    expect(metricValue(text, 'mailer_emails_failed_total', { reason: 'bounced' })).toBe(1);
    expect(metricValue(text, 'mailer_emails_failed_total', { reason: 'transient' })).toBe(1);
    expect(metricValue(text, 'mailer_emails_failed_total', { reason: 'permanent' })).toBeUndefined();
    expect(metricValue(text, 'mailer_smtp_send_duration_seconds_count', { outcome: 'accepted' })).toBe(3);
    expect(metricValue(text, 'mailer_smtp_send_duration_seconds_count', { outcome: 'transient' })).toBe(1);
    expect(metricValue(text, 'mailer_smtp_send_duration_seconds_count', { outcome: 'permanent' })).toBe(1);
    const queue = QUEUES.automationContactEvents.name;
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'ack' })).toBe(3);
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'dead-letter' })).toBeUndefined();
    expect(harness.sink.messagesTo(delivered.email)).toHaveLength(2);
    expect(harness.sink.messagesTo(retried.email)).toHaveLength(1);
  });

  it('counts requests by route and reports the outbox lag as 0 once the relay caught up', async () => {
    expect((await fetch(`${harness.url}/healthz`)).status).toBe(200);
    const empty = await waitFor(
      async () => {
        const text = await scrapeMetrics(harness.url);
        return metricValue(text, 'mailer_outbox_oldest_pending_age_seconds') === 0 ? text : undefined;
      },
      { what: 'an empty outbox' },
    );
    expect(metricValue(empty, 'http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
  });
});
