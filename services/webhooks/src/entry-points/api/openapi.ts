import { componentSchemas, schemaRef, type OpenApiFragment, type OpenApiOperation } from '@mailer/shared';
import { WEBHOOK_EVENT_TYPES, webhookEnvelopeSchema, type WebhookEventType } from '../../domain/webhook-events';

const TAGS = ['Webhooks'];

/** `contact.created` → `ContactCreatedWebhook`: the component name of a type's payload. */
const schemaName = (type: WebhookEventType) =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Webhook`;

const SUMMARIES: Record<WebhookEventType, string> = {
  'contact.created': 'A contact was created (REST, an event, an import or a subscribe form).',
  'contact.updated': 'A contact changed; `changed` names the fields.',
  'contact.deleted': 'A contact was deleted.',
  'contact.unsubscribed': 'A contact stopped being subscribed (unsubscribe link, REST, or import).',
  'email.sent': 'A workflow email was accepted by the mail server.',
  'email.failed': 'A workflow email failed for good (after its retries).',
  'email.bounced': 'The mail server refused an address permanently; the contact is marked bounced.',
  'email.opened': 'A reader loaded an email\'s open pixel (only where the account tracks opens); `machine` marks a scanner or mail proxy.',
  'email.clicked': 'A reader followed a tracked link of an email (a click implies an open); `machine` marks a link scanner.',
  'campaign.sent': 'A campaign finished sending; the final counts.',
  'workflow.completed': "A contact's run of a workflow reached its last email step's final outcome.",
};

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header' as const, required: true, description: 'The message id: the same on every retry and resend.', schema: { type: 'string' } },
  { name: 'webhook-timestamp', in: 'header' as const, required: true, description: 'Seconds since the epoch, of this attempt.', schema: { type: 'string' } },
  {
    name: 'webhook-signature',
    in: 'header' as const,
    required: true,
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` per the Standard Webhooks specification; two during a secret rotation.',
    schema: { type: 'string' },
  },
];

const webhookOperation = (type: WebhookEventType): OpenApiOperation => ({
  operationId: `webhook_${type.replace('.', '_')}`,
  summary: SUMMARIES[type],
  tags: TAGS,
  parameters: SIGNATURE_HEADERS,
  requestBody: { required: true, content: { 'application/json': { schema: schemaRef(schemaName(type)) } } },
  responses: {
    '200': { description: 'Any 2xx: delivered. Anything else, or no answer within 5 s, is retried over about a day.' },
  },
});

/** This service's part of the OpenAPI document: no public paths, the webhooks an account can receive. */
export const webhooksOpenApiFragment = (): OpenApiFragment => ({
  paths: {},
  webhooks: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, { post: webhookOperation(type) }])),
  components: {
    schemas: componentSchemas(Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [schemaName(type), webhookEnvelopeSchema(type)])), 'output'),
  },
});
