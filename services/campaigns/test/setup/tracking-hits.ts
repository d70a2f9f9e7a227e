import { randomUUID } from 'node:crypto';
import { Broker, createLogger, emailClickedV1, emailOpenedV1, type MessageOf } from '@mailer/shared';
import { waitFor } from '@mailer/testing';
import type { CampaignsHarness } from './campaigns-harness';

type Hit = MessageOf<typeof emailOpenedV1>;
type Click = MessageOf<typeof emailClickedV1>;

/**
 * Stands in for the events service: publishes tracking hits on the harness's namespace (the hit id
 * is the message id, as events publishes them) and waits for the campaigns consumer to settle them.
 */
export async function startTrackingHits(harness: CampaignsHarness) {
  const events = Broker.start({
    url: harness.config.AMQP_URL,
    namespace: harness.config.BROKER_NAMESPACE,
    logger: createLogger('events', { level: 'silent' }),
    connectionName: 'test-events-tracking',
  });
  await Promise.all([events.ready(), harness.service.broker.ready()]);

  /** A hit of a campaign email an hour after it was sent; fields given replace the defaults. */
  const hit = (fields: Partial<Hit> & Pick<Hit, 'account_id' | 'contact_id'>): Hit => ({
    hit_id: randomUUID(),
    sent_at: new Date(Date.now() - 3_600_000).toISOString(),
    occurred_at: new Date().toISOString(),
    machine: false,
    ...fields,
  });

  const published: string[] = [];
  const open = async (payload: Hit) => {
    await events.publish(emailOpenedV1, payload, { messageId: payload.hit_id });
    published.push(payload.hit_id);
    return payload;
  };
  const click = async (payload: Click) => {
    await events.publish(emailClickedV1, payload, { messageId: payload.hit_id });
    published.push(payload.hit_id);
    return payload;
  };
  /** Resolves once every message published so far has an outcome (a redelivery counts as one more). */
  const settled = () =>
    waitFor(
      () => {
        const pending = [...published];
        for (const { messageId } of harness.engagementOutcomes) {
          const index = pending.indexOf(messageId ?? '');
          if (index >= 0) pending.splice(index, 1);
        }
        return pending.length === 0 || undefined;
      },
      { what: 'the tracking hits settled' },
    );
  return { hit, open, click, settled, close: () => events.close() };
}
