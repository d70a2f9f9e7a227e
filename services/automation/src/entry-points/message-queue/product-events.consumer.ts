import { productEventEnrichedV1, productEventsEnrichedV1, QUEUES, type Broker, type Pool } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { handleProductEvent, type EnrolmentOptions, type EnrolmentOutcome } from '../../domain/enrolment/handle-product-event';
import { handleProductEvents } from '../../domain/enrolment/handle-product-events';
import { TriggeredWorkflowsCache } from '../../domain/enrolment/triggered-workflows-cache';
import type { SendScheduler } from '../workers/send-scheduler';

/**
 * automation.contact-events: enriched product events enrol contacts, one per message
 * (`product_event.enriched.v1`) or several of one trigger (`product_events.enriched.v1`, what
 * contacts had ready at once). A first email due now is claimed in the enrolment's transaction and
 * sent right after commit; the rest wake the scheduler.
 */
export function consumeProductEvents(
  broker: Broker,
  deps: { pool: Pool; mailDomain: string; scheduler: Pick<SendScheduler, 'claimNow' | 'sendNow' | 'wake' | 'leaseMs'> },
): void {
  const { scheduler } = deps;
  const options: EnrolmentOptions = {
    mailDomain: deps.mailDomain,
    claimNow: () => scheduler.claimNow(),
    leaseMs: scheduler.leaseMs,
    workflows: new TriggeredWorkflowsCache(deps.pool),
  };
  const enrolled = ({ enrolled: count, immediate }: EnrolmentOutcome) => {
    scheduler.sendNow(immediate);
    if (count > immediate.length) scheduler.wake();
  };
  broker.consume({
    queue: QUEUES.automationContactEvents.name,
    contracts: [productEventEnrichedV1, productEventsEnrichedV1],
    prefetch: 32,
    handle: async (message) => {
      if ('events' in message.payload) await handleProductEvents({ pool: deps.pool, broker }, message.payload.events, options, enrolled);
      else enrolled(await handleProductEvent(deps.pool, message.messageId, message.payload, options));
    },
    // Test-only: the enrolment (the step's ledger row) is committed and the event acked.
    onOutcome: (outcome) => {
      if (outcome === 'ack') crashPoint('after_ack');
    },
  });
}
