import {
  componentSchemas,
  dataOf,
  errorBodySchema,
  idParameter,
  jsonResponse,
  paginationMetaSchema,
  queryParameters,
  validationErrorSchema,
  type OpenApiFragment,
} from '@mailer/shared';
import { campaignPageSchema, campaignSchema } from './campaign.json';
import { listQuerySchema } from './list-campaigns.query';

const TAGS = ['Campaigns'];

/** This service's part of the OpenAPI document, built from the schemas the routes parse and answer with. */
export const campaignsOpenApiFragment = (): OpenApiFragment => ({
  paths: {
    '/campaigns': {
      get: {
        operationId: 'listCampaigns',
        summary: 'List campaigns (read-only), newest first, with filters and pagination.',
        tags: TAGS,
        parameters: queryParameters(listQuerySchema),
        responses: {
          '200': jsonResponse('One page of campaigns.', 'CampaignPage'),
          '422': jsonResponse('A query parameter is invalid.', 'ValidationError'),
        },
      },
    },
    '/campaigns/{id}': {
      get: {
        operationId: 'getCampaign',
        summary: 'One campaign, in the list item shape.',
        tags: TAGS,
        parameters: [idParameter('The campaign id.')],
        responses: {
          '200': jsonResponse('The campaign.', 'CampaignResponse'),
          '404': jsonResponse('No such campaign in this account.', 'Error'),
        },
      },
    },
  },
  components: {
    schemas: componentSchemas(
      {
        Campaign: campaignSchema,
        PaginationMeta: paginationMetaSchema,
        CampaignPage: campaignPageSchema,
        CampaignResponse: dataOf(campaignSchema),
        Error: errorBodySchema,
        ValidationError: validationErrorSchema,
      },
      'output',
    ),
  },
});
