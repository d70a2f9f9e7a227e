import { randomUUID } from 'node:crypto';
import {
  chunksOf,
  GroupCommit,
  loneEnrichedEventOptions,
  MAX_EVENTS_PER_MESSAGE,
  onePerOwner,
  productEventEnrichedV1,
  productEventsEnrichedV1,
  triggerRoutingKey,
  type Broker,
} from '@mailer/shared';
import type { EnrichedEvent } from './upsert-event-contact';

/**
 * The events of one trigger (account and event name), at most a message's worth each. Two copies
 * of one event (two deliveries of its message handled at once) travel once: automation would
 * drop the second by its inbox row anyway.
 */
function messagesByTrigger(events: readonly EnrichedEvent[]): Array<{ routingKey: string; events: EnrichedEvent[] }> {
  const byTrigger = new Map<string, EnrichedEvent[]>();
  const seen = new Set<string>();
  for (const event of events) {
    if (seen.has(event.event_id)) continue;
    seen.add(event.event_id);
    const routingKey = triggerRoutingKey(event.account_id, event.event);
    const group = byTrigger.get(routingKey);
    if (group) group.push(event);
    else byTrigger.set(routingKey, [event]);
  }
  return [...byTrigger].flatMap(([routingKey, group]) => chunksOf(group, MAX_EVENTS_PER_MESSAGE).map((events) => ({ routingKey, events })));
}

/** One message per trigger: an event alone as `product_event.enriched.v1`, several as `product_events.enriched.v1`. */
async function publishMessages(broker: Broker, events: EnrichedEvent[]): Promise<void> {
  await Promise.all(
    messagesByTrigger(events).map(({ routingKey, events: group }) => {
      const [first] = group;
      if (group.length === 1 && first) return broker.publish(productEventEnrichedV1, first, loneEnrichedEventOptions(first, routingKey));
      return broker.publish(productEventsEnrichedV1, { events: group }, { messageId: randomUUID(), routingKey });
    }),
  );
}

/** Events from several triggers may wait together; each trigger's share is chunked into messages. */
const MAX_EVENTS_PER_WRITE = 8 * MAX_EVENTS_PER_MESSAGE;

/** One group commit per broker connection. */
const enrichedPublishesOf = onePerOwner(
  (broker: Broker) => new GroupCommit<EnrichedEvent>((events) => publishMessages(broker, events), MAX_EVENTS_PER_WRITE),
);

/**
 * Publishes the enriched event and resolves once the broker confirmed the message that holds it,
 * so the caller may then ack the event it came from. Alone, an event is published at once; the
 * enriched events ready while a publish waits for its confirm share the next messages, one per
 * trigger.
 */
export function publishEnrichedEvent(broker: Broker, event: EnrichedEvent): Promise<void> {
  return enrichedPublishesOf(broker).add(event);
}
