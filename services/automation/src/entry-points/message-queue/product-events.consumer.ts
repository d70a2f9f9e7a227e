import { productEventEnrichedV1, QUEUES, type Broker, type Pool } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { handleProductEvent } from '../../domain/enrolment/handle-product-event';
import { TriggeredWorkflowsCache } from '../../domain/enrolment/triggered-workflows-cache';
import type { SendScheduler } from '../workers/send-scheduler';

/**
 * automation.contact-events: enriched product events enrol contacts. A first email due now is
 * claimed in the enrolment's transaction and sent right after commit; the rest wake the scheduler.
 */
export function consumeProductEvents(
  broker: Broker,
  deps: { pool: Pool; mailDomain: string; scheduler: Pick<SendScheduler, 'claimNow' | 'sendNow' | 'wake' | 'leaseMs'> },
): void {
  const { scheduler } = deps;
  const workflows = new TriggeredWorkflowsCache(deps.pool);
  broker.consume({
    queue: QUEUES.automationContactEvents.name,
    contracts: [productEventEnrichedV1],
    prefetch: 32,
    handle: async (message) => {
      const { enrolled, immediate } = await handleProductEvent(deps.pool, message.messageId, message.payload, {
        mailDomain: deps.mailDomain,
        claimNow: () => scheduler.claimNow(),
        leaseMs: scheduler.leaseMs,
        workflows,
      });
      scheduler.sendNow(immediate);
      if (enrolled > immediate.length) scheduler.wake();
    },
    // Test-only: the enrolment (the step's ledger row) is committed and the event acked.
    onOutcome: (outcome) => {
      if (outcome === 'ack') crashPoint('after_ack');
    },
  });
}
