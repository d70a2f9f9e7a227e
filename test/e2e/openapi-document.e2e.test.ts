import Ajv from 'ajv';
import { operationsOf, refsIn, resolvePointer, type Document, type Schema } from './openapi-tools';
import { startProduct, type Product } from './stack-harness';

// The fixed interface's field tables (docs/api.md): the document must show exactly these.
const SPEC_CONTACT_FIELDS = ['id', 'email', 'first_name', 'last_name', 'subscribed', 'bounced', 'source', 'tags', 'custom_properties', 'created_at', 'updated_at'];
const SPEC_CAMPAIGN_FIELDS = [
  'id', 'name', 'title', 'status', 'preview_text', 'emails_sent', 'emails_failed', 'total_recipients',
  'unsubscribes_count', 'send_at', 'sent_at', 'created_at', 'updated_at',
];
const SPEC_CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sent', 'failed', 'approved', 'sending'];
const SPEC_META_FIELDS = ['current_page', 'total_pages', 'total_count', 'per_page'];

/** The OpenAPI 3.1 skeleton, as far as this document uses it (draft-07, which the installed ajv reads). */
const reference = { type: 'object', required: ['$ref'], properties: { $ref: { type: 'string', pattern: '^#/components/' } } };
const response = { oneOf: [reference, { type: 'object', required: ['description'], not: { required: ['$ref'] } }] };
const operation = {
  type: 'object',
  required: ['operationId', 'responses'],
  properties: {
    operationId: { type: 'string', minLength: 1 },
    parameters: {
      type: 'array',
      items: { type: 'object', required: ['name', 'in', 'schema'], properties: { in: { enum: ['query', 'path', 'header', 'cookie'] } } },
    },
    requestBody: { type: 'object', required: ['content'] },
    responses: { type: 'object', minProperties: 1, additionalProperties: false, patternProperties: { '^[1-5][0-9]{2}$': response } },
  },
};
const server = { type: 'object', required: ['url'], properties: { url: { type: 'string' }, variables: { type: 'object' } } };
const openApiSkeleton = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: { type: 'object', required: ['title', 'version'] },
    servers: { type: 'array', minItems: 1, items: server },
    paths: {
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      patternProperties: {
        '^/': {
          type: 'object',
          additionalProperties: false,
          properties: { servers: { type: 'array', items: server }, get: operation, post: operation, patch: operation, put: operation, delete: operation },
        },
      },
    },
    components: {
      type: 'object',
      required: ['schemas', 'securitySchemes'],
      properties: { schemas: { type: 'object', additionalProperties: { type: 'object' } }, securitySchemes: { type: 'object', minProperties: 1 } },
    },
  },
};

const keysOf = (schema: Schema | undefined) => Object.keys(schema?.properties ?? {}).sort();

describe('the OpenAPI document served by the gateway', () => {
  let product: Product;
  let document: Document;
  let headers: Headers;
  beforeAll(async () => {
    product = await startProduct();
    const response = await fetch(`${product.gateway.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    headers = response.headers;
    document = (await response.json()) as Document;
  }, 60_000);
  afterAll(() => product?.stop());

  it('is public JSON, still carrying the IP rate-limit headers', () => {
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('has the OpenAPI 3.1 structure, valid JSON Schemas, responses on every operation and no dangling $ref', () => {
    const ajv = new Ajv({ allErrors: true });
    expect(ajv.validate(openApiSkeleton, document) ? [] : ajv.errors).toEqual([]);
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect({ name, valid: ajv.validateSchema(schema), errors: ajv.errors ?? null }).toEqual({ name, valid: true, errors: null });
    }
    const operations = operationsOf(document);
    expect(operations.map((op) => op.operation.operationId).sort()).toEqual(
      ['createContact', 'deleteContact', 'getCampaign', 'getContact', 'listCampaigns', 'listContacts', 'sendEvent', 'updateContact'],
    );
    for (const { operation } of operations) expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
    const dangling = refsIn(document).filter((ref) => resolvePointer(document, ref) === undefined);
    expect(dangling).toEqual([]);
  });

  it("shows exactly the spec's Contact and Campaign fields and pagination envelope", () => {
    const { schemas } = document.components;
    expect(keysOf(schemas.Contact)).toEqual([...SPEC_CONTACT_FIELDS].sort());
    expect(keysOf(schemas.Campaign)).toEqual([...SPEC_CAMPAIGN_FIELDS].sort());
    expect((schemas.Campaign?.properties?.status as { enum: string[] }).enum).toEqual(SPEC_CAMPAIGN_STATUSES);
    expect(keysOf(schemas.PaginationMeta)).toEqual([...SPEC_META_FIELDS].sort());
    for (const page of ['ContactPage', 'CampaignPage']) {
      expect(keysOf(schemas[page])).toEqual(['data', 'meta']);
      expect(schemas[page]?.properties?.meta).toEqual({ $ref: '#/components/schemas/PaginationMeta' });
    }
    expect(schemas.ContactPage?.properties?.data).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Contact' } });
    expect((schemas.ContactValidationError?.properties?.domain_error as { enum: string[] }).enum).toEqual(['disposable', 'no_mx', 'dns_timeout']);
    expect(keysOf(schemas.ProductEvent)).toEqual(['email', 'event', 'properties']);
    expect(keysOf(schemas.NewContact)).toEqual(['custom_properties', 'email', 'first_name', 'last_name', 'source', 'subscribed', 'tags']);
  });

  it('describes the bearer scheme, both base addresses, and the gateway refusals on every operation', () => {
    expect(document.components).toMatchObject({ securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.servers).toEqual([expect.objectContaining({ url: '{base_url}' })]);
    expect(document.paths['/v1/events']?.servers).toEqual([expect.objectContaining({ url: '{events_url}' })]);
    for (const { operation } of operationsOf(document)) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    expect(document.components.responses.TooManyRequests).toMatchObject({
      headers: { 'Retry-After': expect.any(Object), 'X-RateLimit-Limit': expect.any(Object), 'X-RateLimit-Remaining': expect.any(Object), 'X-RateLimit-Reset': expect.any(Object) },
    });
  });

  it('renders a reference page listing every operation, its parameters and body fields, without any script', async () => {
    const response = await fetch(`${product.gateway.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const page = await response.text();
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/https?:\/\/(?!localhost)/);
    for (const { path, method, operation } of operationsOf(document)) {
      expect(page).toContain(`id="op-${operation.operationId}"`);
      expect(page).toContain(`${method.toUpperCase()} ${path.startsWith('/v1') ? '{events_url}' : '{base_url}'}${path}`);
    }
    for (const name of ['q', 'subscribed', 'bounced', 'per_page', 'status', 'Idempotency-Key', 'custom_properties', 'unsubscribes_count', 'domain_error']) {
      expect(page).toContain(`<code>${name}</code>`);
    }
  });
});
