import { enrichedEventMessageId, handleEachAlone, loneEnrichedEventOptions, productEventEnrichedV1, type Broker, type Pool } from '@mailer/shared';
import { handleProductEvent, type EnrichedEvent, type EnrolmentOptions, type EnrolmentOutcome } from './handle-product-event';

/**
 * The events of one `product_events.enriched.v1` message, each enrolled as if it had come alone
 * (`handleEachAlone`): under the inbox key its lone message would have had (`enriched:<event id>`),
 * so a copy that arrives alone or in another batch is dropped. `onEnrolled` is told of each event
 * done (its first emails are sent at once). One that fails on its own (workflows that kept
 * changing, a statement Postgres refuses) goes back alone as `product_event.enriched.v1`.
 */
export function handleProductEvents(
  deps: { pool: Pool; broker: Broker },
  events: readonly EnrichedEvent[],
  options: EnrolmentOptions,
  onEnrolled: (outcome: EnrolmentOutcome) => void,
): Promise<void> {
  return handleEachAlone(
    events,
    async (event) => onEnrolled(await handleProductEvent(deps.pool, enrichedEventMessageId(event), event, options)),
    (event) => deps.broker.publish(productEventEnrichedV1, event, loneEnrichedEventOptions(event)),
  );
}
