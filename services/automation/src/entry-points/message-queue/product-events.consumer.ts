import {
  productEventEnrichedV1,
  productEventsEnrichedV1,
  QUEUES,
  type Broker,
  type ConsumeOutcome,
  type Pool,
} from '@mailer/shared';
import { PRODUCT_EVENT_CONTRACTS, type EventContacts } from '@mailer/contacts/event-contacts';
import { crashPoint } from '../../crash-point';
import { enrolIfTriggered, handleProductEvent, type EnrichedEvent, type EnrolmentOptions, type EnrolmentOutcome } from '../../domain/enrolment/handle-product-event';
import { handleProductEvents } from '../../domain/enrolment/handle-product-events';
import { TriggeredWorkflowsCache } from '../../domain/enrolment/triggered-workflows-cache';
import type { SendScheduler } from '../workers/send-scheduler';

export interface ProductEventsDeps {
  pool: Pool;
  mailDomain: string;
  scheduler: Pick<SendScheduler, 'claimNow' | 'sendNow' | 'wake' | 'leaseMs'>;
  /**
   * Given when this service consumes the queued product events (`PRODUCT_EVENTS_UPSERTED_BY=automation`,
   * or `gateway`, where only what a gateway queued before is left to drain).
   */
  eventContacts?: EventContacts | undefined;
}

/** Test-only: the enrolment (the step's ledger row) is committed and the event acked. */
const crashAfterAck = (outcome: ConsumeOutcome) => {
  if (outcome === 'ack') crashPoint('after_ack');
};

/**
 * Product events enrol contacts. A first email due now is claimed in the enrolment's transaction
 * and sent right after commit; the rest wake the scheduler. Two ways in, under one inbox key per
 * event (`enriched:<event id>`), so an event enrols once whichever way it came, even both:
 * - automation.contact-events: enriched events, one per message (`product_event.enriched.v1`) or
 *   several of one trigger (`product_events.enriched.v1`), published by the gateway or contacts
 *   when it upserts the product events, by an older contacts during an upgrade, or by this service
 *   putting one event of a batch back;
 * - contacts.product-events, when this service upserts them: contacts' own code upserts each
 *   event's contact on contacts' database and hands the enriched event straight to the enrolment,
 *   a broker hop less per event. An event no enabled workflow triggers on stops there, as its
 *   enriched message would have found no binding.
 */
export function consumeProductEvents(broker: Broker, deps: ProductEventsDeps): void {
  const { scheduler } = deps;
  const workflows = new TriggeredWorkflowsCache(deps.pool);
  const options: EnrolmentOptions = {
    mailDomain: deps.mailDomain,
    claimNow: () => scheduler.claimNow(),
    leaseMs: scheduler.leaseMs,
    workflows,
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

  const { eventContacts } = deps;
  if (!eventContacts) return;
  const enrol = async (event: EnrichedEvent) => {
    // Test-only: the contact is committed in contacts' database, the enrolment is not.
    crashPoint('after_upsert');
    const outcome = await enrolIfTriggered(deps.pool, event, options);
    if (outcome) enrolled(outcome);
  };
  broker.consume({
    queue: QUEUES.contactsProductEvents.name,
    contracts: [...PRODUCT_EVENT_CONTRACTS],
    // As contacts' own consumer of this queue: room for the events of a burst to share statements.
    prefetch: 64,
    handle: (message) => eventContacts.upsert(message, enrol),
    onOutcome: crashAfterAck,
  });
}
