import { randomUUID } from 'node:crypto';
import {
  BrokerUnavailableError,
  GroupCommit,
  loneProductEventOptions,
  MAX_EVENTS_PER_MESSAGE,
  onePerOwner,
  productEventReceivedV1,
  productEventsReceivedV1,
  type Broker,
  type MessageOf,
} from '@mailer/shared';
import type { AcceptedEvent, EventInput } from './event-input';
import { brokerUnavailable } from './events.errors';

export interface EventOrigin {
  accountId: number;
  requestId: string;
}

type ProductEvent = MessageOf<typeof productEventReceivedV1>;

/**
 * One message per publish: an event alone as `product_event.received.v1` (its id the message id),
 * the events accepted while the previous publish waited for its confirm together as
 * `product_events.received.v1`. Each caller's promise settles with its message's confirm.
 */
async function publishMessage(broker: Broker, events: ProductEvent[]): Promise<void> {
  const [first] = events;
  if (events.length === 1 && first) {
    await broker.publish(productEventReceivedV1, first, loneProductEventOptions(first));
    return;
  }
  await broker.publish(productEventsReceivedV1, { events }, { messageId: randomUUID() });
}

/** One group commit per broker connection. */
const eventMessagesOf = onePerOwner(
  (broker: Broker) => new GroupCommit<ProductEvent>((events) => publishMessage(broker, events), MAX_EVENTS_PER_MESSAGE),
);

/**
 * Publishes the event and resolves only once the broker confirmed the message that holds it: the
 * caller may then say 202. An unconfirmed publish is a 503, never an acknowledged-then-lost event.
 * Alone, an event is published at once; under load the events that arrive while a confirm is
 * awaited share the next message (no timer, so no added wait when the gateway is idle).
 */
export async function publishEvent(
  broker: Broker,
  origin: EventOrigin,
  input: EventInput,
): Promise<AcceptedEvent> {
  const accepted: AcceptedEvent = {
    id: randomUUID(),
    event: input.event,
    email: input.email,
    received_at: new Date().toISOString(),
  };
  try {
    await eventMessagesOf(broker).add({
      event_id: accepted.id,
      account_id: origin.accountId,
      event: accepted.event,
      email: accepted.email,
      properties: input.properties ?? {},
      received_at: accepted.received_at,
      request_id: origin.requestId,
    });
  } catch (error) {
    if (error instanceof BrokerUnavailableError) throw brokerUnavailable();
    throw error;
  }
  return accepted;
}
