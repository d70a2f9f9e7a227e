import { headersFor, rateHeaders, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

describe('GET / (the start page on the REST listener)', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await stopGateways();
  });

  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, { redirect: 'manual', ...init, headers: headersFor(undefined, uniqueIp()) });

  it('answers HTML without a key, limited by IP, with a strict CSP and no script', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(rateHeaders(response).limit).toBeGreaterThan(0);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(response.headers.get('content-security-policy')).not.toMatch(/script-src/);
    const text = await response.text();
    expect(text).not.toMatch(/<script/i);
    expect(text).toMatch(/<html lang="en">/);
  });

  it('links the account app, the API reference and health, and each link leads somewhere real', async () => {
    const text = await (await get('/')).text();
    const hrefs = [...text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(hrefs).toEqual(expect.arrayContaining(['/app', '/docs', '/api/v1/openapi.json', '/healthz', '/readyz']));
    // /app is the account app's (services/web, not running here): the gateway answers for it with
    // an HTML page, never JSON (the app itself is tested on the whole stack, test/e2e/app-*).
    const account = await get('/app');
    expect(account.status).toBe(503);
    expect(account.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await account.text()).toMatch(/The account app is unavailable/);
    expect(await (await get('/healthz')).json()).toEqual({ status: 'ok', service: 'gateway' });
    expect((await get('/readyz')).status).toBe(200);
    // /docs is the gateway's own route: without the services' fragments it answers 503, never 404.
    expect([200, 503]).toContain((await get('/docs')).status);
  });

  it('refuses other methods with 405 JSON and Allow, and unknown paths stay a JSON 404', async () => {
    const post = await get('/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toEqual({ error: 'method not allowed' });
    const unknown = await get('/nothing-here');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'route not found' });
  });
});
