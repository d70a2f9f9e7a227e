import { QUEUES, withTransaction, type Broker, type ConsumeOutcome, type Logger, type Pool } from '@mailer/shared';
import { insertDeliveries } from '../../data-access/deliveries.repository';
import { subscribedEndpointIds } from '../../data-access/endpoints.repository';
import { WEBHOOK_FACTS, webhooksOfFact, type WebhookFact } from '../../domain/webhooks-of-fact';

/**
 * Turns each fact into one delivery row per subscribed endpoint, and nothing more: no HTTP here,
 * so a slow endpoint never holds the queue. The rows' unique webhook-id makes a redelivered fact
 * harmless; the worker is woken once they are committed.
 */
export function consumeWebhookFacts(deps: {
  broker: Broker;
  pool: Pool;
  logger: Logger;
  onQueued: () => void;
  onOutcome?: ((outcome: ConsumeOutcome, messageId: string | undefined) => void) | undefined;
}): void {
  deps.broker.consume({
    queue: QUEUES.webhooksFacts.name,
    contracts: WEBHOOK_FACTS,
    prefetch: 32,
    onOutcome: deps.onOutcome,
    handle: async (message) => {
      const events = webhooksOfFact({ type: message.type, payload: message.payload } as WebhookFact, message.messageId);
      const queued = await withTransaction(deps.pool, async (client) => {
        let count = 0;
        for (const event of events) {
          const endpoints = await subscribedEndpointIds(client, event.accountId, event.type);
          count += await insertDeliveries(client, endpoints, event);
        }
        return count;
      });
      if (queued > 0) deps.onQueued();
    },
  });
}
