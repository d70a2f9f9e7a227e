import {
  handleEachAlone,
  loneProductEventOptions,
  productEventReceivedV1,
  type Broker,
  type MessageOf,
  type Pool,
} from '@mailer/shared';
import { upsertEventContact } from './upsert-event-contact';

type ProductEvent = MessageOf<typeof productEventReceivedV1>;

/**
 * The events of one `product_events.received.v1` message, each handled as if it had come alone
 * (`handleEachAlone`): its own inbox key, from its event id; the events of the message share the
 * statements of `upsertEventContact` as those of one prefetch do. A retried message publishes the
 * enriched events of those done again with the same ids, which automation drops. One that fails
 * on its own goes back as `product_event.received.v1`.
 */
export function upsertEventContacts(
  deps: { pool: Pool; broker: Broker },
  inboxKeyOf: (event: ProductEvent) => string,
  events: readonly ProductEvent[],
): Promise<void> {
  return handleEachAlone(
    events,
    (event) => upsertEventContact(deps, inboxKeyOf(event), event),
    (event) => deps.broker.publish(productEventReceivedV1, event, loneProductEventOptions(event)),
  );
}
