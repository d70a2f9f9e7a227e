import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The event types an endpoint can subscribe to, in the order the docs list them. */
export const WEBHOOK_EVENT_TYPES = [
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contact.unsubscribed',
  'email.sent',
  'email.failed',
  'email.bounced',
  'email.opened',
  'email.clicked',
  'campaign.sent',
  'workflow.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const id = z.number().int().positive();

const contact = z
  .object({
    id,
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    subscribed: z.boolean(),
    bounced: z.boolean(),
    tags: z.array(z.string()),
    custom_properties: z.record(z.string(), scalar),
  })
  .meta({ description: 'The contact as the REST interface shows it.' });

const email = z.object({
  contact_id: id,
  message_id: z.string().meta({ description: 'The Message-ID of the email.' }),
  workflow: z.string().meta({ description: 'The workflow that sent it; empty for a campaign email.' }),
  step: z.string(),
  campaign_id: id.nullable(),
});

const engagement = z.object({
  contact_id: id,
  campaign_id: id.nullable(),
  workflow_id: id.nullable().meta({ description: 'The workflow whose email it was; null for a campaign email.' }),
  step: z.string().nullable(),
  sent_at: z.string().meta({ description: 'When the email was rendered for sending.' }),
  machine: z.boolean().meta({ description: 'The hit looks like a link scanner or mail proxy (within seconds of delivery, or a scanner by name): counted apart from readers.' }),
});

/** `data` of each event type, version 1. A change that is not additive gets a new version. */
export const webhookDataSchemas = {
  'contact.created': z.object({ contact }),
  'contact.updated': z.object({ contact, changed: z.array(z.string()).meta({ description: 'The fields that changed.' }) }),
  'contact.deleted': z.object({ contact_id: id, email: z.string() }),
  'contact.unsubscribed': z.object({ contact }),
  'email.sent': email,
  'email.failed': email,
  'email.bounced': z.object({ email: z.string(), reason: z.string().meta({ description: "The mail server's answer." }) }),
  'email.opened': engagement,
  'email.clicked': engagement.extend({ url: z.string().meta({ description: 'Where the link pointed.' }) }),
  'campaign.sent': z.object({
    campaign_id: id,
    name: z.string(),
    total_recipients: z.number().int().min(0),
    sent: z.number().int().min(0),
    failed: z.number().int().min(0),
    skipped: z.number().int().min(0),
    sent_at: z.string(),
  }),
  'workflow.completed': z.object({
    contact_id: id,
    workflow: z.string(),
    last_step: z.string(),
    last_step_outcome: z.enum(['sent', 'skipped', 'failed']),
  }),
} as const satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookData<T extends WebhookEventType> = z.output<(typeof webhookDataSchemas)[T]>;

const envelopeOf = <T extends WebhookEventType>(type: T) =>
  z.object({
    type: z.literal(type),
    version: z.literal(1),
    timestamp: z.string().meta({ description: 'When the fact happened (ISO 8601).' }),
    account_id: id,
    data: webhookDataSchemas[type],
  });

type EnvelopeSchemas = { [T in WebhookEventType]: ReturnType<typeof envelopeOf<T>> };

// Built once: zod compiles a schema on its first parse, and a schema built per fact paid that
// compilation every time (120 µs a fact, a third of the service's time in a backlog drain).
const envelopeSchemas = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, envelopeOf(type)])) as EnvelopeSchemas;

/** The body of every webhook: the envelope Standard Webhooks suggests, plus a schema version. */
export const webhookEnvelopeSchema = <T extends WebhookEventType>(type: T): EnvelopeSchemas[T] => envelopeSchemas[type];

/** One webhook to deliver, before it is stored per endpoint. */
export interface WebhookEvent {
  type: WebhookEventType;
  /** The webhook-id: stable for one fact (and event type), so a redelivered fact is the same message. */
  messageId: string;
  accountId: number;
  body: string;
}

export function webhookEvent<T extends WebhookEventType>(type: T, factMessageId: string, accountId: number, occurredAt: string, data: WebhookData<T>): WebhookEvent {
  const body = JSON.stringify(webhookEnvelopeSchema(type).parse({ type, version: 1, timestamp: occurredAt, account_id: accountId, data }));
  // The same fact delivered again gives the same id; the type tells apart two events of one fact (an
  // update that unsubscribed); the body keeps a message id another service reuses (a numeric outbox
  // id after a restore) from passing for a repeat.
  const digest = createHash('sha256').update(`${factMessageId}\n${type}\n${body}`).digest('base64url').slice(0, 32);
  return { type, messageId: `msg_${digest}`, accountId, body };
}
