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
  /** Campaigns' requests to automation: send, control (pause, resume, cancel, retry failed), test send. */
  automationCampaignCommands: {
    name: 'automation.campaign-commands',
    bindings: ['campaign.send_requested.v1', 'campaign.control.v1', 'campaign.test_requested.v1'],
  },
  campaignsProgress: { name: 'campaigns.progress', bindings: ['campaign.progress.v1'] },
  /** Double opt-in: contacts asks automation to send a confirmation email; automation reports the click back. */
  automationConfirmationRequests: { name: 'automation.confirmation-requests', bindings: ['contact.confirmation_requested.v1'] },
  contactsConfirmations: { name: 'contacts.confirmations', bindings: ['contact.confirmed.v1'] },
  /** Every fact an account's webhook endpoints may subscribe to (services/webhooks). */
  webhooksFacts: {
    name: 'webhooks.facts',
    bindings: [
      'contact.created.v1',
      'contact.updated.v1',
      'contact.deleted.v1',
      'contact.bounced.v1',
      'email.sent.v1',
      'campaign.sent.v1',
      'workflow.completed.v1',
    ],
  },
} as const satisfies Record<string, QueueDefinition>;

/**
 * Queues no service consumes any more, deleted (with their dead letters) by every service's
 * topology declaration. `campaigns.send-results` counted campaign emails one fact each; campaign
 * counts travel in `campaign.progress.v1` batches, and it only received workflow emails' facts to
 * ignore them (a tenth of the CPU of each workflow email, broker included).
 */
export const RETIRED_QUEUES: readonly string[] = ['campaigns.send-results'];

export const BROKER_NAMESPACE_PATTERN = /^[a-z0-9._-]*$/;

export const deadLetterQueueName = (queue: string) => `${queue}.dlq`;
