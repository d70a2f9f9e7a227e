import type { WebhookEventType } from './webhook-events';
import type { WebhookFact } from './webhooks-of-fact';

/**
 * The fact (its routing key) each webhook event type comes from: what `webhooksOfFact` turns into
 * that event. `webhooks.facts` is bound to a fact only while an enabled endpoint subscribes to one
 * of its events. A unit test runs `webhooksOfFact` over every kind of fact and fails if the two
 * disagree.
 */
export const FACT_OF_WEBHOOK_EVENT: Record<WebhookEventType, WebhookFact['type']> = {
  'contact.created': 'contact.created.v1',
  'contact.updated': 'contact.updated.v1',
  'contact.deleted': 'contact.deleted.v1',
  // An update that turned `subscribed` off.
  'contact.unsubscribed': 'contact.updated.v1',
  'email.sent': 'email.sent.v1',
  // An email.sent.v1 whose outcome is not `sent`.
  'email.failed': 'email.sent.v1',
  'email.bounced': 'contact.bounced.v1',
  'email.opened': 'email.opened.v1',
  'email.clicked': 'email.clicked.v1',
  'campaign.sent': 'campaign.sent.v1',
  'workflow.completed': 'workflow.completed.v1',
};

/** The routing keys endpoints subscribed to `eventTypes` need, each once (unknown types need none). */
export function factsFor(eventTypes: Iterable<string>): WebhookFact['type'][] {
  const facts = new Set<WebhookFact['type']>();
  for (const type of eventTypes) {
    if (Object.hasOwn(FACT_OF_WEBHOOK_EVENT, type)) facts.add(FACT_OF_WEBHOOK_EVENT[type as WebhookEventType]);
  }
  return [...facts];
}
