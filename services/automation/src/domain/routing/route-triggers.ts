import { QUEUES, triggerRoutingKey, type PoolClient, type QueueRouter } from '@mailer/shared';
import { forgetRoutes, liveTriggers, lockTriggerRouting, recordedRoutes, recordRoutes, type LiveTrigger } from '../../data-access/trigger-routes.repository';

const keysOf = (triggers: readonly LiveTrigger[]) => [...new Set(triggers.map((trigger) => triggerRoutingKey(trigger.accountId, trigger.event)))];

/**
 * Binds automation.contact-events to the key of every live trigger and unbinds the keys recorded
 * for triggers that are gone, in the caller's transaction under the routing lock: reconciles of
 * every instance run one at a time, and each reads the workflows only once it holds the lock, so
 * a stale one can never unbind what a newer workflow needs. Every live key is bound again, not only
 * new ones, so a broker that lost bindings (a rebuilt node, a re-declared queue) gets them back.
 * Keys are recorded before they are bound: a key bound is a key known, and unbound when unneeded.
 */
export async function routeLiveTriggers(client: PoolClient, router: QueueRouter): Promise<void> {
  await lockTriggerRouting(client);
  const needed = keysOf(await liveTriggers(client));
  const wanted = new Set(needed);
  const recorded = await recordedRoutes(client);
  const known = new Set(recorded);
  const unneeded = recorded.filter((key) => !wanted.has(key));
  await recordRoutes(client, needed.filter((key) => !known.has(key)));
  await router.setQueueBindings(QUEUES.automationContactEvents.name, { bind: needed, unbind: unneeded });
  await forgetRoutes(client, unneeded);
}

/**
 * Binds the keys of `triggers` (unbinding nothing), under the routing lock in the transaction that
 * writes their workflows: the write commits only once its events are routed, and no reconcile that
 * read the workflows before it can unbind them afterwards.
 */
export async function routeTriggers(client: PoolClient, router: QueueRouter, triggers: readonly LiveTrigger[]): Promise<void> {
  const keys = keysOf(triggers.filter((trigger) => trigger.event !== ''));
  if (keys.length === 0) return;
  await lockTriggerRouting(client);
  await recordRoutes(client, keys);
  await router.setQueueBindings(QUEUES.automationContactEvents.name, { bind: keys, unbind: [] });
}
