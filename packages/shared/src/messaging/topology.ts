/**
 * The whole broker topology, declared by every service at start (idempotently), so no message is
 * published before the queue that must hold it exists, whichever service starts first.
 */
export const EXCHANGE = 'mailer.facts';
export const DEAD_LETTER_EXCHANGE = 'mailer.dead-letter';

/** How many deliveries a message gets before it is dead-lettered. */
export const DELIVERY_LIMIT = 20;

export interface QueueDefinition {
  name: string;
  /** Routing keys (message types) bound from EXCHANGE. */
  bindings: string[];
}

export const QUEUES = {
  contactsProductEvents: { name: 'contacts.product-events', bindings: ['product_event.received.v1'] },
  contactsBounces: { name: 'contacts.bounces', bindings: ['contact.bounced.v1'] },
  contactsUnsubscribes: { name: 'contacts.unsubscribes', bindings: ['contact.unsubscribe_requested.v1'] },
  automationContactEvents: { name: 'automation.contact-events', bindings: ['product_event.enriched.v1'] },
  automationContactFacts: {
    name: 'automation.contact-facts',
    bindings: ['contact.created.v1', 'contact.updated.v1', 'contact.deleted.v1'],
  },
  campaignsSendResults: { name: 'campaigns.send-results', bindings: ['email.sent.v1'] },
} as const satisfies Record<string, QueueDefinition>;

export const BROKER_NAMESPACE_PATTERN = /^[a-z0-9._-]*$/;

export const deadLetterQueueName = (queue: string) => `${queue}.dlq`;
