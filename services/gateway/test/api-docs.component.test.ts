import express from 'express';
import { z } from 'zod';
import { componentSchemas, fragmentRoute, jsonResponse, listen, type OpenApiFragment, type RunningServer } from '@mailer/shared';
import { mergeDocument } from '../src/entry-points/api-docs/openapi-document';
import { headersFor, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

/** A service's fragment with one operation answering `schema` (named `name`) at `path`. */
function fragmentWith(path: string, name: string, schema: z.ZodType, method: 'get' | 'post' = 'get'): OpenApiFragment {
  return {
    paths: { [path]: { [method]: { operationId: `${method}${name}`, summary: name, tags: [name], responses: { '200': jsonResponse('ok', name) } } } },
    components: { schemas: componentSchemas({ [name]: schema }, 'output') },
  };
}

async function serveFragment(fragment: OpenApiFragment, port = 0): Promise<RunningServer> {
  const app = express();
  app.use(fragmentRoute(fragment));
  return listen(app, port, '127.0.0.1');
}

describe('GET /api/v1/openapi.json and /docs (merged from the services)', () => {
  const servers: RunningServer[] = [];
  let gateway: Gateway;
  let campaignsPort: number;
  const gadgets = () => fragmentWith('/gadgets', 'Gadget', z.object({ name: z.string() }));

  beforeAll(async () => {
    servers.push(await serveFragment(fragmentWith('/widgets', 'Widget', z.object({ id: z.number().int() }))));
    servers.push(await serveFragment(fragmentWith('/v1/events', 'ProductEvent', z.object({ event: z.string() }), 'post')));
    // A port that is free now: the campaigns service is "down" until a test starts it there.
    const probe = await serveFragment(gadgets());
    campaignsPort = probe.port;
    await probe.close();
    gateway = await startGateway({
      CONTACTS_SERVICE_URL: servers[0]!.url,
      EVENTS_SERVICE_URL: servers[1]!.url,
      CAMPAIGNS_SERVICE_URL: `http://127.0.0.1:${campaignsPort}`,
    });
  });
  afterAll(async () => {
    await stopGateways();
    await Promise.all(servers.map((server) => server.close()));
  });

  const getDocument = () => fetch(`${gateway.url}/api/v1/openapi.json`, { headers: headersFor(undefined, uniqueIp()) });

  it('answers 503 JSON with Retry-After while a service cannot give its fragment, then serves the merged document without a key', async () => {
    const down = await getDocument();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toEqual({ error: expect.stringContaining('campaigns') });

    servers.push(await serveFragment(gadgets(), campaignsPort));
    const up = await getDocument();
    expect(up.status).toBe(200);
    expect(up.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const document = (await up.json()) as Record<string, never>;
    expect(document).toMatchObject({
      openapi: '3.1.0',
      servers: [{ url: '{base_url}' }],
      security: [{ bearerAuth: [] }],
      paths: {
        '/widgets': { get: { responses: { '200': { headers: { 'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' } } } } } },
        '/gadgets': { get: { responses: { '401': { $ref: '#/components/responses/Unauthorized' }, '429': { $ref: '#/components/responses/TooManyRequests' } } } },
        // The events service's paths are served on the events listener.
        '/v1/events': { servers: [{ url: '{events_url}' }], post: { responses: { '401': { $ref: '#/components/responses/Unauthorized' } } } },
      },
      components: { schemas: { Widget: { type: 'object' }, Gadget: { type: 'object' }, ProductEvent: { type: 'object' }, Error: { required: ['error'] } } },
    });
  });

  it('renders /docs as plain HTML with every operation and no script', async () => {
    const page = await fetch(`${gateway.url}/docs`, { headers: headersFor(undefined, uniqueIp()) });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('GET {base_url}/widgets');
    expect(text).toContain('POST {events_url}/v1/events');
    expect(text).not.toMatch(/<script/i);
    expect(page.headers.get('content-security-policy')).not.toMatch(/script-src/);
  });

  it('refuses to merge two services that name the same schema differently', () => {
    const a = { name: 'a', server: 'rest' as const, fragment: fragmentWith('/a', 'Thing', z.object({ id: z.number() })) };
    const b = { name: 'b', server: 'rest' as const, fragment: fragmentWith('/b', 'Thing', z.object({ id: z.string() })) };
    expect(() => mergeDocument([a, b], '1')).toThrow(/Thing/);
    expect(Object.keys(mergeDocument([a, { ...b, fragment: fragmentWith('/b', 'Thing', z.object({ id: z.number() })) }], '1').paths)).toEqual(['/a', '/b']);
  });
});
