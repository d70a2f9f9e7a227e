import {
  isDependencyUnavailable,
  loneEnrichedEventOptions,
  productEventEnrichedV1,
  type Broker,
  type Pool,
} from '@mailer/shared';
import { handleProductEvent, type EnrichedEvent, type EnrolmentOptions, type EnrolmentOutcome } from './handle-product-event';

/**
 * The events of one `product_events.enriched.v1` message, each enrolled as if it had come alone:
 * under the inbox key its lone message would have had (`enriched:<event id>`), so a copy that
 * arrives alone or in another batch is dropped. `onEnrolled` is told of each event done (its first
 * emails are sent at once). The message is acked only when every event is done or back in the
 * queue on its own:
 * - a dependency down: that failure is thrown, so the consumer retries the whole message in place;
 *   the events already done are dropped by their inbox rows;
 * - any other failure (workflows that kept changing, a statement Postgres refuses): the event is
 *   published again alone, confirmed before the ack, so it is retried and in the end dead-lettered
 *   by itself, never taking the message's other events along.
 */
export async function handleProductEvents(
  deps: { pool: Pool; broker: Broker },
  events: readonly EnrichedEvent[],
  options: EnrolmentOptions,
  onEnrolled: (outcome: EnrolmentOutcome) => void,
): Promise<void> {
  const outcomes = await Promise.allSettled(
    events.map(async (event) => {
      onEnrolled(await handleProductEvent(deps.pool, loneEnrichedEventOptions(event).messageId, event, options));
    }),
  );
  const failures = outcomes.flatMap((outcome, index) =>
    outcome.status === 'rejected' ? [{ event: events[index]!, error: outcome.reason as unknown }] : [],
  );
  const unavailable = failures.find((failure) => isDependencyUnavailable(failure.error));
  if (unavailable) throw unavailable.error;
  await Promise.all(
    failures.map(({ event }) => deps.broker.publish(productEventEnrichedV1, event, loneEnrichedEventOptions(event))),
  );
}
