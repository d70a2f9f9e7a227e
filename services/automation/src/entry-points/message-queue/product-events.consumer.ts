import {
  productEventEnrichedV1,
  productEventsEnrichedV1,
  QUEUES,
  type Broker,
  type ConsumeOutcome,
  type Pool,
} from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { handleProductEvent, type EnrolmentOptions, type EnrolmentOutcome } from '../../domain/enrolment/handle-product-event';
import { handleProductEvents } from '../../domain/enrolment/handle-product-events';
import { TriggeredWorkflowsCache } from '../../domain/enrolment/triggered-workflows-cache';
import type { SendScheduler } from '../workers/send-scheduler';

export interface ProductEventsDeps {
  pool: Pool;
  mailDomain: string;
  scheduler: Pick<SendScheduler, 'claimNow' | 'sendNow' | 'wake' | 'leaseMs'>;
}

/** Test-only: the enrolment (the step's ledger row) is committed and the event acked. */
const crashAfterAck = (outcome: ConsumeOutcome) => {
  if (outcome === 'ack') crashPoint('after_ack');
};

/**
 * automation.contact-events: the product events contacts publishes enriched with their contact,
 * one per message (`product_event.enriched.v1`) or several of one trigger
 * (`product_events.enriched.v1`), bound only to the triggers of enabled workflows. Each enrols its
 * contact under the inbox key `enriched:<event id>`, so a copy (a redelivery, contacts publishing
 * again after a crash, an event of a batch put back alone) enrols nothing more. A first email due
 * now is claimed in the enrolment's statement and sent right after commit; the rest wake the
 * scheduler.
 */
export function consumeProductEvents(broker: Broker, deps: ProductEventsDeps): void {
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
    onOutcome: crashAfterAck,
  });
}
