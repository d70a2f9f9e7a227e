import { contactsCreatedV1, GroupCommit, QUEUES, type Broker, type ConsumeOutcome, type Logger, type MessageOf, type Pool } from '@mailer/shared';
import { insertDeliveries, type QueuedEvent } from '../../data-access/deliveries.repository';
import { WEBHOOK_FACTS, webhooksOfFact, type WebhookFact } from '../../domain/webhooks-of-fact';

/**
 * Turns each fact into one delivery row per subscribed endpoint, and nothing more: no HTTP here,
 * so a slow endpoint never holds the queue. The facts handled at the same time are written in one
 * statement (a fact costs the database a row per endpoint, not a transaction); the rows' unique
 * webhook-id makes a redelivered fact harmless; the worker is woken once they are committed.
 */
export function consumeWebhookFacts(deps: {
  broker: Broker;
  pool: Pool;
  logger: Logger;
  /** The endpoints that got new deliveries. */
  onQueued: (endpointIds: number[]) => void;
  onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
}): void {
  const deliveries = new GroupCommit<QueuedEvent[]>(async (eventsOfFacts) => {
    const endpointIds = await insertDeliveries(deps.pool, eventsOfFacts.flat());
    if (endpointIds.length > 0) deps.onQueued(endpointIds);
  });
  deps.broker.consume({
    queue: QUEUES.webhooksFacts.name,
    contracts: [...WEBHOOK_FACTS, contactsCreatedV1],
    prefetch: 64,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      const events =
        message.type === contactsCreatedV1.type
          ? // Each fact of a batch under its own id, as if it had come alone.
            (message.payload as MessageOf<typeof contactsCreatedV1>).facts.flatMap(({ id, fact }) =>
              webhooksOfFact({ type: 'contact.created.v1', payload: fact }, id),
            )
          : webhooksOfFact({ type: message.type, payload: message.payload } as WebhookFact, message.messageId);
      if (events.length > 0) await deliveries.add(events);
    },
  });
}
