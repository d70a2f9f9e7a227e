import {
  campaignSentV1,
  contactBouncedV1,
  contactCreatedV1,
  contactDeletedV1,
  contactUpdatedV1,
  emailClickedV1,
  emailOpenedV1,
  emailSentV1,
  workflowCompletedV1,
  type ContactSnapshot,
  type MessageOf,
} from '@mailer/shared';
import { webhookEvent, type WebhookEvent } from './webhook-events';

/** The facts this service turns into webhooks (queue `webhooks.facts`). */
export const WEBHOOK_FACTS = [
  contactCreatedV1,
  contactUpdatedV1,
  contactDeletedV1,
  contactBouncedV1,
  emailSentV1,
  emailOpenedV1,
  emailClickedV1,
  campaignSentV1,
  workflowCompletedV1,
] as const;

/** A fact off the queue, discriminated by its routing key. */
export type WebhookFact =
  | { type: 'contact.created.v1'; payload: MessageOf<typeof contactCreatedV1> }
  | { type: 'contact.updated.v1'; payload: MessageOf<typeof contactUpdatedV1> }
  | { type: 'contact.deleted.v1'; payload: MessageOf<typeof contactDeletedV1> }
  | { type: 'contact.bounced.v1'; payload: MessageOf<typeof contactBouncedV1> }
  | { type: 'email.sent.v1'; payload: MessageOf<typeof emailSentV1> }
  | { type: 'email.opened.v1'; payload: MessageOf<typeof emailOpenedV1> }
  | { type: 'email.clicked.v1'; payload: MessageOf<typeof emailClickedV1> }
  | { type: 'campaign.sent.v1'; payload: MessageOf<typeof campaignSentV1> }
  | { type: 'workflow.completed.v1'; payload: MessageOf<typeof workflowCompletedV1> };

/** The public shape of a contact: what the REST interface shows (no internal suppression detail). */
const publicContact = (contact: ContactSnapshot) => ({
  id: contact.id,
  email: contact.email,
  first_name: contact.first_name,
  last_name: contact.last_name,
  subscribed: contact.subscribed,
  bounced: contact.bounced,
  tags: contact.tags,
  custom_properties: contact.custom_properties,
});

/** What an open or a click says about its email; the contact's id, never its address (the hit did not carry it). */
const engagementData = (hit: MessageOf<typeof emailOpenedV1>) => ({
  contact_id: hit.contact_id,
  campaign_id: hit.campaign_id ?? null,
  workflow_id: hit.workflow_id ?? null,
  step: hit.step ?? null,
  sent_at: hit.sent_at,
  machine: hit.machine,
});

/**
 * The webhook events one fact means. An update that turned `subscribed` off is also a
 * `contact.unsubscribed` (however it happened: a link click, the REST interface, an import).
 */
export function webhooksOfFact(fact: WebhookFact, factMessageId: string): WebhookEvent[] {
  switch (fact.type) {
    case 'contact.created.v1': {
      const { account_id, contact, occurred_at } = fact.payload;
      return [webhookEvent('contact.created', factMessageId, account_id, occurred_at, { contact: publicContact(contact) })];
    }
    case 'contact.updated.v1': {
      const { account_id, contact, occurred_at, changed } = fact.payload;
      const events = [webhookEvent('contact.updated', factMessageId, account_id, occurred_at, { contact: publicContact(contact), changed })];
      if (changed.includes('subscribed') && !contact.subscribed) {
        events.push(webhookEvent('contact.unsubscribed', factMessageId, account_id, occurred_at, { contact: publicContact(contact) }));
      }
      return events;
    }
    case 'contact.deleted.v1': {
      const { account_id, contact_id, email, occurred_at } = fact.payload;
      return [webhookEvent('contact.deleted', factMessageId, account_id, occurred_at, { contact_id, email })];
    }
    case 'contact.bounced.v1': {
      const { account_id, email, reason, occurred_at } = fact.payload;
      return [webhookEvent('email.bounced', factMessageId, account_id, occurred_at, { email, reason })];
    }
    case 'email.sent.v1': {
      const { account_id, contact_id, message_id, workflow, step, outcome, occurred_at, campaign_id } = fact.payload;
      const data = { contact_id, message_id, workflow, step, campaign_id: campaign_id ?? null };
      return [webhookEvent(outcome === 'sent' ? 'email.sent' : 'email.failed', factMessageId, account_id, occurred_at, data)];
    }
    case 'email.opened.v1': {
      const hit = fact.payload;
      return [webhookEvent('email.opened', factMessageId, hit.account_id, hit.occurred_at, engagementData(hit))];
    }
    case 'email.clicked.v1': {
      const hit = fact.payload;
      return [webhookEvent('email.clicked', factMessageId, hit.account_id, hit.occurred_at, { ...engagementData(hit), url: hit.url })];
    }
    case 'campaign.sent.v1': {
      const { account_id, ...data } = fact.payload;
      return [webhookEvent('campaign.sent', factMessageId, account_id, data.sent_at, data)];
    }
    case 'workflow.completed.v1': {
      const { account_id, occurred_at, ...data } = fact.payload;
      return [webhookEvent('workflow.completed', factMessageId, account_id, occurred_at, data)];
    }
  }
}
