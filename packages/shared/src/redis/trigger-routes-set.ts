/**
 * Automation's record in Redis of the product events' routing keys it has bound to
 * automation.contact-events (`triggerRoutingKey`), read by the gateway so an event no enabled
 * workflow triggers on is not published at all (docs/decisions.md, "Session 40").
 *
 * The set is trusted only while it holds `TRIGGER_ROUTES_WHOLE`: automation writes the full set,
 * that member and an expiry in one transaction at each reconcile, and adds a new workflow's key
 * before the workflow commits. A set without it (Redis restarted empty, the set expired because no
 * automation renewed it, a key added to a set that had expired) says nothing, and the gateway
 * publishes every event.
 */
export const TRIGGER_ROUTES_WHOLE = 'whole'; // not a routing key (those begin `product_event.`)

/**
 * The set of one exchange's bindings: named by the broker's virtual host and namespace as well,
 * so deployments (or test stacks) sharing a Redis and its key prefix never read each other's.
 */
export function triggerRoutesSetKey(broker: { amqpUrl: string; namespace: string }): string {
  const virtualHost = decodeURIComponent(new URL(broker.amqpUrl).pathname.slice(1)) || '/';
  return `automation:trigger-routes:${virtualHost}:${broker.namespace}`;
}
