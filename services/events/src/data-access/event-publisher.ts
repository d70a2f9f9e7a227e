import { randomUUID } from 'node:crypto';
import {
  GroupCommit,
  loneProductEventOptions,
  MAX_EVENTS_PER_MESSAGE,
  onePerOwner,
  productEventReceivedV1,
  productEventsReceivedV1,
  type Broker,
} from '@mailer/shared';
import type { ProductEvent, PublishEvent } from '../domain/accept-event';

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
 * Publishes accepted events for contacts (queue `contacts.product-events`), each resolving once the
 * broker confirmed the message that holds it. Alone, an event is published at once; under load the
 * events that arrive while a confirm is awaited share the next message (no timer, so no added wait
 * when the service is idle), which costs the broker about what one event alone does.
 */
export const eventPublisher =
  (broker: Broker): PublishEvent =>
  (event) =>
    eventMessagesOf(broker).add(event);
