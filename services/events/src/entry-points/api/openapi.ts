import {
  componentSchemas,
  dataOf,
  errorBodySchema,
  jsonRequest,
  jsonResponse,
  DOMAIN_ERRORS,
  validationErrorSchema,
  type OpenApiFragment,
} from '@mailer/shared';
import { z } from 'zod';
import { acceptedEventSchema, eventInputSchema } from '../../domain/event-input';
import { IDEMPOTENCY_KEY } from '../../domain/ingest-event';

const retryAfter = (description: string) => ({ 'Retry-After': { description, schema: { type: 'integer' } } });

/**
 * This service's part of the OpenAPI document, built from the route's own schemas; the gateway merges
 * it from `GET /openapi-fragment.json` and serves these paths on {events_url}.
 */
export const eventsOpenApiFragment = (): OpenApiFragment => ({
  paths: {
    '/v1/events': {
      post: {
        operationId: 'sendEvent',
        summary: 'Send a product event for a contact; 202 once the event is durably stored.',
        tags: ['Events'],
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'Retries with the same key and body within 24 h get the first answer and publish nothing.',
            schema: { type: 'string', pattern: IDEMPOTENCY_KEY.source },
          },
        ],
        requestBody: jsonRequest('ProductEvent'),
        responses: {
          '202': {
            ...jsonResponse('Accepted: the broker confirmed the event; its contact is upserted and the workflows it triggers run shortly after.', 'EventAccepted'),
            headers: { 'Idempotent-Replayed': { description: '`true` when this is a replayed answer.', schema: { type: 'string' } } },
          },
          '400': jsonResponse('The body is not JSON or not a JSON object, or the Idempotency-Key is malformed.', 'Error'),
          '409': {
            ...jsonResponse('A request with this Idempotency-Key is still in progress.', 'Error'),
            headers: retryAfter('Seconds to wait before retrying.'),
          },
          '413': jsonResponse('The body is larger than 64 KiB; nothing was published.', 'Error'),
          '415': jsonResponse('The body is not `application/json`; nothing was published.', 'Error'),
          '422': jsonResponse(
            'The event is invalid (one sentence per problem), its address failed the domain check (`domain_error`, the body ' +
              'contacts gives), or the Idempotency-Key was used with another body. Nothing was published.',
            'EventValidationError',
          ),
          '503': {
            ...jsonResponse('The event could not be stored; nothing was accepted. Retry later.', 'Error'),
            headers: retryAfter('Seconds to wait before retrying.'),
          },
        },
      },
    },
  },
  components: {
    schemas: {
      ...componentSchemas(
        {
          AcceptedEvent: acceptedEventSchema,
          EventAccepted: dataOf(acceptedEventSchema),
          Error: errorBodySchema,
          EventValidationError: validationErrorSchema.extend({
            domain_error: z.enum(DOMAIN_ERRORS).optional().describe('Set only when the email domain check failed.'),
          }),
        },
        'output',
      ),
      ...componentSchemas({ ProductEvent: eventInputSchema }, 'input'),
    },
  },
});
