import { componentSchemas, errorBodySchema, type JsonSchema, type OpenApiFragment, type OpenApiOperation } from '@mailer/shared';

/** Which public listener serves a fragment's paths. */
export type ApiServer = 'rest' | 'events';

export interface SourcedFragment {
  name: string;
  server: ApiServer;
  fragment: OpenApiFragment;
}

type Reference = { $ref: string };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string; variables: Record<string, { default: string; description: string }> }[];
  security: Record<string, string[]>[];
  tags: { name: string }[];
  paths: Record<string, Record<string, unknown> & { servers?: OpenApiDocument['servers'] }>;
  /** OpenAPI 3.1: the requests this installation makes to an account's webhook endpoints. */
  webhooks?: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const REST_SERVER = {
  url: '{base_url}',
  description: 'REST interface (contacts, campaigns); its path ends in /api/v1.',
  variables: { base_url: { default: 'http://localhost:3000/api/v1', description: 'Where this installation serves /api/v1.' } },
};

const EVENTS_SERVER = {
  url: '{events_url}',
  description: 'Product-event endpoint.',
  variables: { events_url: { default: 'http://localhost:3001', description: 'Where this installation accepts events.' } },
};

const ref = (kind: 'headers' | 'responses', name: string): Reference => ({ $ref: `#/components/${kind}/${name}` });

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
};

const errorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...RATE_LIMIT_HEADERS, ...headers },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** What the gateway itself adds to every operation: its own refusals, all limited and described by headers. */
const GATEWAY_RESPONSES = {
  Unauthorized: errorResponse('Missing, invalid, revoked or expired API key.'),
  Forbidden: errorResponse('The plan does not include API access.'),
  TooManyRequests: errorResponse('A rate limit was exceeded (or this address is blocked after failed authentications).', {
    'Retry-After': ref('headers', 'Retry-After'),
  }),
  ServiceUnavailable: errorResponse('A service behind the gateway is unavailable; retry later.', {
    'Retry-After': ref('headers', 'Retry-After'),
  }),
};

const GATEWAY_STATUSES: Record<string, keyof typeof GATEWAY_RESPONSES> = {
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '429': 'TooManyRequests',
  '503': 'ServiceUnavailable',
};

const HEADERS = {
  'X-RateLimit-Limit': integerHeader('Maximum requests in the current window.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'X-RateLimit-Reset': integerHeader('Unix timestamp (seconds) when the window resets.'),
  'Retry-After': integerHeader('Seconds to wait before retrying (60 for an exceeded rate limit).'),
};

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every operation also answers with the gateway's statuses; every response carries the rate-limit headers. */
function withGatewayResponses(operation: OpenApiOperation): OpenApiOperation {
  const responses: OpenApiOperation['responses'] = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = { ...response, headers: { ...RATE_LIMIT_HEADERS, ...response.headers } };
  }
  const added = Object.fromEntries(
    Object.entries(GATEWAY_STATUSES)
      .filter(([status]) => !(status in responses))
      .map(([status, name]) => [status, ref('responses', name)]),
  );
  return { ...operation, responses: { ...responses, ...added } as OpenApiOperation['responses'] };
}

function mergeSchemas(target: Record<string, JsonSchema>, source: Record<string, JsonSchema>, from: string): void {
  for (const [name, schema] of Object.entries(source)) {
    // Shared shapes (Error, PaginationMeta) come from every service; they must agree.
    if (name in target && !sameJson(target[name], schema)) throw new Error(`schema ${name} from ${from} conflicts with another service's`);
    target[name] = schema;
  }
}

/** The public OpenAPI 3.1 document: the services' fragments plus what the gateway itself does. */
export function mergeDocument(fragments: SourcedFragment[], version: string): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  mergeSchemas(schemas, componentSchemas({ Error: errorBodySchema }, 'output'), 'gateway');
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  const webhooks: NonNullable<OpenApiDocument['webhooks']> = {};
  for (const { name, server, fragment } of fragments) {
    mergeSchemas(schemas, fragment.components.schemas, name);
    for (const [type, item] of Object.entries(fragment.webhooks ?? {})) {
      Object.values(item).forEach((operation) => operation.tags.forEach((tag) => tags.add(tag)));
      webhooks[type] = item;
    }
    for (const [path, item] of Object.entries(fragment.paths)) {
      if (path in paths) throw new Error(`path ${path} is documented by two services`);
      const merged: OpenApiDocument['paths'][string] = server === 'events' ? { servers: [EVENTS_SERVER] } : {};
      for (const [method, operation] of Object.entries(item)) {
        if (!HTTP_METHODS.has(method)) continue;
        operation.tags.forEach((tag) => tags.add(tag));
        merged[method] = withGatewayResponses(operation);
      }
      paths[path] = merged;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mailer API',
      version,
      description:
        'Contacts, read-only campaigns and product events. Every request carries `Authorization: Bearer <API key>`; ' +
        'keys are made in Settings → API Keys. Limits: 1000 requests/minute and 10000/hour per key, 300/minute per IP address.',
    },
    servers: [REST_SERVER],
    security: [{ bearerAuth: [] }],
    tags: [...tags].map((tag) => ({ name: tag })),
    paths,
    ...(Object.keys(webhooks).length > 0 ? { webhooks } : {}),
    components: {
      schemas,
      responses: GATEWAY_RESPONSES,
      headers: HEADERS,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from Settings → API Keys.' } },
    },
  };
}
