import { z } from 'zod';
import {
  componentSchemas,
  dataOf,
  errorBodySchema,
  idParameter,
  jsonRequest,
  jsonResponse,
  paginationMetaSchema,
  queryParameters,
  validationErrorSchema,
  type OpenApiFragment,
} from '@mailer/shared';
import { DOMAIN_ERRORS } from '@mailer/shared';
import { contactChangesSchema, newContactSchema } from './contact.schemas';
import { contactPageSchema, contactSchema } from './contact-response';
import { listContactsQuerySchema } from './list-query';

/** A contact 422: `errors`, plus `domain_error` when the email domain check refused the address. */
const contactValidationErrorSchema = validationErrorSchema.extend({
  domain_error: z.enum(DOMAIN_ERRORS).optional().describe('Set only when the email domain check failed.'),
});

const TAGS = ['Contacts'];
const notFound = jsonResponse('No such contact in this account.', 'Error');
const invalid = jsonResponse(
  'Validation failed, one sentence per problem: a field breaking its rule, "email has already been taken", a field given ' +
    'flat and under `contact` with different values, a limit passed (docs/api.md); `domain_error` names a failed email domain check.',
  'ContactValidationError',
);
const badBody = jsonResponse('The body is not JSON, or not a JSON object.', 'Error');
const tooLarge = jsonResponse('The body is larger than 64 KiB; nothing was changed.', 'Error');
const notJson = jsonResponse('The body is not `application/json`; nothing was changed.', 'Error');
const contactId = idParameter('The contact id.');

/** What a client can do next with the contact a create answered (OpenAPI links). */
const contactLinks = {
  GetContact: { operationId: 'getContact', parameters: { id: '$response.body#/data/id' } },
  UpdateContact: { operationId: 'updateContact', parameters: { id: '$response.body#/data/id' } },
  DeleteContact: { operationId: 'deleteContact', parameters: { id: '$response.body#/data/id' } },
};

/** This service's part of the OpenAPI document, built from the schemas the routes parse and answer with. */
export const contactsOpenApiFragment = (): OpenApiFragment => ({
  paths: {
    '/contacts': {
      get: {
        operationId: 'listContacts',
        summary: 'List contacts, newest first, with filters (q, subscribed, bounced, and the `tag` extension) and pagination.',
        tags: TAGS,
        parameters: queryParameters(listContactsQuerySchema),
        responses: { '200': jsonResponse('One page of contacts.', 'ContactPage'), '422': invalid },
      },
      post: {
        operationId: 'createContact',
        summary: 'Create a contact; fields flat or nested under `contact`. The email domain is validated first.',
        tags: TAGS,
        requestBody: jsonRequest('CreateContactRequest'),
        responses: {
          '201': { ...jsonResponse('The created contact.', 'ContactResponse'), links: contactLinks },
          '400': badBody,
          '413': tooLarge,
          '415': notJson,
          '422': invalid,
        },
      },
    },
    '/contacts/{id}': {
      get: {
        operationId: 'getContact',
        summary: 'One contact with all its tags.',
        tags: TAGS,
        parameters: [contactId],
        responses: { '200': jsonResponse('The contact.', 'ContactResponse'), '404': notFound },
      },
      patch: {
        operationId: 'updateContact',
        summary: 'Change only the fields sent (flat or under `contact`); tags sent are added.',
        tags: TAGS,
        parameters: [contactId],
        requestBody: jsonRequest('UpdateContactRequest'),
        responses: {
          '200': jsonResponse('The updated contact.', 'ContactResponse'),
          '400': badBody,
          '404': notFound,
          '413': tooLarge,
          '415': notJson,
          '422': invalid,
        },
      },
      delete: {
        operationId: 'deleteContact',
        summary: 'Delete a contact.',
        tags: TAGS,
        parameters: [contactId],
        responses: { '204': { description: 'Deleted; no body.' }, '404': notFound },
      },
    },
  },
  components: {
    schemas: {
      ...componentSchemas(
        {
          Contact: contactSchema,
          PaginationMeta: paginationMetaSchema,
          ContactPage: contactPageSchema,
          ContactResponse: dataOf(contactSchema),
          Error: errorBodySchema,
          ContactValidationError: contactValidationErrorSchema,
        },
        'output',
      ),
      ...componentSchemas(
        {
          NewContact: newContactSchema,
          CreateContactRequest: z.union([newContactSchema, z.object({ contact: newContactSchema })]),
          ContactChanges: contactChangesSchema,
          UpdateContactRequest: z.union([contactChangesSchema, z.object({ contact: contactChangesSchema })]),
        },
        'input',
      ),
    },
  },
});
