import { productEventEnrichedV1, QUEUES, type Broker, type Pool } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { handleProductEvent } from '../../domain/enrolment/handle-product-event';

/** automation.contact-events: enriched product events enrol contacts; new enrolments wake the scheduler. */
export function consumeProductEvents(broker: Broker, deps: { pool: Pool; mailDomain: string; onEnrolled: () => void }): void {
  broker.consume({
    queue: QUEUES.automationContactEvents.name,
    contracts: [productEventEnrichedV1],
    prefetch: 32,
    handle: async (message) => {
      const enrolled = await handleProductEvent(deps.pool, message.messageId, message.payload, deps.mailDomain);
      if (enrolled > 0) deps.onEnrolled();
    },
    // Test-only: the enrolment (the step's ledger row) is committed and the event acked.
    onOutcome: (outcome) => {
      if (outcome === 'ack') crashPoint('after_ack');
    },
  });
}
