import { QUEUES, WEBHOOK_FACT_TYPES, type PoolClient, type QueueRouter } from '@mailer/shared';
import { lockFactRouting, subscribedEventTypes } from '../data-access/fact-routing.repository';
import { factsFor } from './fact-of-webhook-event';

/**
 * Binds `webhooks.facts` to exactly the facts enabled endpoints subscribe to and unbinds the rest,
 * in the caller's transaction under the routing lock: reconciles of every instance run one at a
 * time, and each reads the endpoints only once it holds the lock, so the last one has seen every
 * change committed before it (a stale one can never unbind what a newer endpoint needs).
 */
export async function routeSubscribedFacts(client: PoolClient, router: QueueRouter): Promise<string[]> {
  await lockFactRouting(client);
  const needed: string[] = factsFor(await subscribedEventTypes(client));
  const unneeded = WEBHOOK_FACT_TYPES.filter((type) => !needed.includes(type));
  await router.setQueueBindings(QUEUES.webhooksFacts.name, { bind: needed, unbind: unneeded });
  return needed;
}

/**
 * Binds the facts an endpoint subscribed to `eventTypes` needs (unbinding nothing), under the
 * routing lock in the transaction that writes the endpoint: the write commits only once its facts
 * are routed, and no reconcile that read the endpoints before it can unbind them afterwards.
 */
export async function routeFactsOf(client: PoolClient, router: QueueRouter, eventTypes: readonly string[]): Promise<void> {
  await lockFactRouting(client);
  await router.setQueueBindings(QUEUES.webhooksFacts.name, { bind: factsFor(eventTypes), unbind: [] });
}
