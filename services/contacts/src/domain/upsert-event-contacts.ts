import {
  isDependencyUnavailable,
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
 * (its own inbox key, from its event id; the events of the message share the statements of
 * `upsertEventContact` as those of one prefetch do). The message is acked only when each event is
 * done or back in the queue on its own:
 * - all done: the caller acks;
 * - a dependency down: that failure is thrown, so the consumer retries the whole message in place,
 *   and the events already done are dropped by their inbox rows (their enriched events published
 *   again with the same ids, which automation drops);
 * - any other failure (an address that breaks the rule, a statement Postgres refuses): each such
 *   event is published again alone as `product_event.received.v1`, confirmed before the ack, so it
 *   is retried and in the end dead-lettered by itself, never taking the message's other events along.
 */
export async function upsertEventContacts(
  deps: { pool: Pool; broker: Broker },
  inboxKeyOf: (event: ProductEvent) => string,
  events: readonly ProductEvent[],
): Promise<void> {
  const outcomes = await Promise.allSettled(
    events.map((event) => upsertEventContact(deps, inboxKeyOf(event), event)),
  );
  const failures = outcomes.flatMap((outcome, index) =>
    outcome.status === 'rejected' ? [{ event: events[index]!, error: outcome.reason as unknown }] : [],
  );
  const unavailable = failures.find((failure) => isDependencyUnavailable(failure.error));
  if (unavailable) throw unavailable.error;
  await Promise.all(
    failures.map(({ event }) =>
      deps.broker.publish(productEventReceivedV1, event, loneProductEventOptions(event)),
    ),
  );
}
