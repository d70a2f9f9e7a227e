import { createHash } from 'node:crypto';

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
  contactsProductEvents: { name: 'contacts.product-events', bindings: ['product_event.received.v1', 'product_events.received.v1'] },
  contactsBounces: { name: 'contacts.bounces', bindings: ['contact.bounced.v1'] },
  contactsUnsubscribes: { name: 'contacts.unsubscribes', bindings: ['contact.unsubscribe_requested.v1'] },
  /**
   * Enriched product events, published with `triggerRoutingKey`: the automation service binds the
   * key of each (account, event name) an enabled workflow triggers on, so an event no workflow
   * listens to costs it nothing. The static binding is for publishers that route by type (an
   * older contacts service during an upgrade, tests): what they publish still arrives.
   */
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
  /**
   * Facts for accounts' webhook endpoints. No static bindings: every service declares this whole
   * topology at each start, so a static binding would come back with any service's start. The
   * webhooks service binds it to WEBHOOK_FACT_TYPES only while an enabled endpoint subscribes (most
   * accounts have none, and each fact routed here costs the broker and the webhooks service work).
   */
  webhooksFacts: { name: 'webhooks.facts', bindings: [] },
  /** Tracking hits (opens, clicks), published by the events service: each consumer keeps its own record. */
  automationEngagement: { name: 'automation.engagement', bindings: ['email.opened.v1', 'email.clicked.v1'] },
  campaignsEngagement: { name: 'campaigns.engagement', bindings: ['email.opened.v1', 'email.clicked.v1'] },
  contactsEngagement: { name: 'contacts.engagement', bindings: ['email.opened.v1', 'email.clicked.v1'] },
} as const satisfies Record<string, QueueDefinition>;

/** The facts `webhooks.facts` may be bound to; the webhooks service owns these bindings. */
export const WEBHOOK_FACT_TYPES = [
  'contact.created.v1',
  'contact.updated.v1',
  'contact.deleted.v1',
  'contact.bounced.v1',
  'email.sent.v1',
  'campaign.sent.v1',
  'workflow.completed.v1',
  'email.opened.v1',
  'email.clicked.v1',
] as const;

const staticallyBound = new Set<string>(Object.values(QUEUES).flatMap((queue): readonly string[] => queue.bindings));

/**
 * Message types that may find no queue, and that is no error: facts only `webhooks.facts` consumes,
 * bound while an endpoint subscribes. A publish of one is not mandatory (dropped when nobody
 * listens); every other publish still is, so a missing binding stays a refused publish, not a loss.
 */
export const MAY_BE_UNROUTED: ReadonlySet<string> = new Set(WEBHOOK_FACT_TYPES.filter((type) => !staticallyBound.has(type)));

/**
 * Queues no service consumes any more, deleted (with their dead letters) by every service's
 * topology declaration. `campaigns.send-results` counted campaign emails one fact each; campaign
 * counts travel in `campaign.progress.v1` batches, and it only received workflow emails' facts to
 * ignore them (a tenth of the CPU of each workflow email, broker included).
 */
export const RETIRED_QUEUES: readonly string[] = ['campaigns.send-results'];

/**
 * The routing key of an enriched product event: the type, then a digest of the account and event
 * name (names may hold any character, and a key's words are dot-separated and at most 255 bytes).
 * 128 bits: two triggers sharing a key would only deliver an event automation then ignores.
 */
export function triggerRoutingKey(accountId: number, eventName: string): string {
  const digest = createHash('sha256').update(`${accountId}\n${eventName}`).digest('hex').slice(0, 32);
  return `product_event.enriched.v1.${digest}`;
}

export const BROKER_NAMESPACE_PATTERN = /^[a-z0-9._-]*$/;

export const deadLetterQueueName = (queue: string) => `${queue}.dlq`;
