import http from 'node:http';
import { IDENTITY_HEADER, signIdentity } from '@mailer/shared';
import { TEST_SIGNING_SECRET } from '@mailer/testing';
import { aKey } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import { expectNoKeyInLogs, headersFor, rateHeaders, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

/** node:http, because fetch refuses to send hop-by-hop headers such as Connection. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

describe('proxy to the internal services', () => {
  let contacts: Awaited<ReturnType<typeof startFakeUpstream>>;
  let campaigns: Awaited<ReturnType<typeof startFakeUpstream>>;
  let automation: Awaited<ReturnType<typeof startFakeUpstream>>;
  let events: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: Gateway;

  beforeAll(async () => {
    [contacts, campaigns, automation, events] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
    gateway = await startGateway({
      CONTACTS_SERVICE_URL: contacts.url,
      CAMPAIGNS_SERVICE_URL: campaigns.url,
      AUTOMATION_SERVICE_URL: automation.url,
      EVENTS_SERVICE_URL: events.url,
    });
  });
  afterAll(async () => {
    await stopGateways();
    await Promise.all([contacts, campaigns, automation, events].map((upstream) => upstream.close()));
    expectNoKeyInLogs();
  });

  it('signs the account, strips credentials and forged identities, propagates X-Request-Id', async () => {
    const { plaintext, accountId } = await aKey(gateway.pool);
    const forged = signIdentity({ accountId: accountId + 1, requestId: 'forged' }, { method: 'GET', path: '/api/v1/contacts?q=a%25b&page=2' }, TEST_SIGNING_SECRET);
    const response = await fetch(`${gateway.url}/api/v1/contacts?q=a%25b&page=2`, {
      headers: headersFor(plaintext, uniqueIp(), { [IDENTITY_HEADER]: forged, 'x-request-id': 'req-proxy-1', cookie: 'session=abc' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-proxy-1');
    const seen = contacts.seen.find((request) => request.headers['x-request-id'] === 'req-proxy-1')!;
    expect(seen.url).toBe('/api/v1/contacts?q=a%25b&page=2');
    expect(seen.accountId).toBe(accountId);
    expect(seen.headers[IDENTITY_HEADER]).not.toBe(forged);
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers.cookie).toBeUndefined();
  });

  it('streams a request body through and returns the upstream status', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const body = JSON.stringify({ email: 'proxy@example.test', tags: ['a'] });
    const response = await fetch(`${gateway.url}/api/v1/campaigns/whatever`, {
      method: 'POST',
      headers: headersFor(plaintext, uniqueIp(), { 'content-type': 'application/json', 'x-request-id': 'req-proxy-2' }),
      body,
    });
    expect(response.status).toBe(201);
    expect(campaigns.seen.find((request) => request.headers['x-request-id'] === 'req-proxy-2')?.body).toBe(body);
  });

  it('forwards a body over 64 KiB and a chunked body (both streamed, not buffered) intact', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const large = JSON.stringify({ note: 'x'.repeat(80_000) });
    const response = await fetch(`${gateway.url}/api/v1/campaigns/large`, {
      method: 'POST',
      headers: headersFor(plaintext, uniqueIp(), { 'content-type': 'application/json', 'x-request-id': 'req-proxy-large' }),
      body: large,
    });
    expect(response.status).toBe(201);
    expect(campaigns.seen.find((request) => request.headers['x-request-id'] === 'req-proxy-large')?.body).toBe(large);

    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${gateway.url}/api/v1/campaigns/chunked`, {
        method: 'POST',
        headers: headersFor(plaintext, uniqueIp(), { 'content-type': 'application/json', 'x-request-id': 'req-proxy-chunked' }),
      });
      request.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', reject);
      // No Content-Length: node sends Transfer-Encoding: chunked.
      request.write('{"part":');
      request.end('"two"}');
    });
    expect(status).toBe(201);
    expect(campaigns.seen.find((request) => request.headers['x-request-id'] === 'req-proxy-chunked')?.body).toBe('{"part":"two"}');
  });

  it('streams a large upstream response through whole', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const response = await fetch(`${gateway.url}/api/v1/contacts/big`, { headers: headersFor(plaintext, uniqueIp()) });
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBe(300_000);
    rateHeaders(response);
  });

  it('removes hop-by-hop headers both ways and keeps its own rate-limit headers', async () => {
    const { plaintext, accountId } = await aKey(gateway.pool);
    contacts.own(424242, accountId);
    const response = await rawGet(`${gateway.url}/api/v1/contacts/424242`, {
      ...headersFor(plaintext, uniqueIp()),
      connection: 'keep-alive, x-client-hop',
      'x-client-hop': 'private',
      'x-request-id': 'req-proxy-3',
    });
    expect(response.status).toBe(200);
    expect(contacts.seen.find((request) => request.headers['x-request-id'] === 'req-proxy-3')?.headers['x-client-hop']).toBeUndefined();
    expect(response.headers['x-internal-hop']).toBeUndefined();
    expect(response.headers['x-ratelimit-limit']).toBe('300');
  });

  it('serves the public unsubscribe page without a key, limited by IP, with no identity', async () => {
    const response = await fetch(`${gateway.url}/unsubscribe/tok123?x=1`, { headers: headersFor(undefined, uniqueIp(), { 'x-request-id': 'req-unsub' }) });
    expect(response.status).toBe(200);
    expect(rateHeaders(response).limit).toBe(300);
    const seen = automation.seen.find((request) => request.headers['x-request-id'] === 'req-unsub')!;
    expect(seen.url).toBe('/unsubscribe/tok123?x=1');
    expect(seen.headers[IDENTITY_HEADER]).toBeUndefined();
  });

  it("hands a tracked link's redirect from the events service back as it is, without a key or an identity, with the reader's User-Agent", async () => {
    const response = await fetch(`${gateway.url}/t/c/tok456?url=https://evil.example/`, {
      redirect: 'manual',
      headers: headersFor(undefined, uniqueIp(), { 'x-request-id': 'req-track', 'user-agent': 'Reader/1.0' }),
    });
    expect([response.status, response.headers.get('location'), response.headers.get('cache-control')]).toEqual([302, 'https://example.test/landing', 'no-store, max-age=0']);
    expect(rateHeaders(response).limit).toBe(300);
    const seen = events.seen.find((request) => request.headers['x-request-id'] === 'req-track')!;
    expect(seen.url).toBe('/t/c/tok456?url=https://evil.example/');
    expect([seen.headers['user-agent'], seen.headers[IDENTITY_HEADER]]).toEqual(['Reader/1.0', undefined]);
  });

  it('proxies /v1/events on the events listener to the events service with a signed identity, and only there', async () => {
    const { plaintext, accountId } = await aKey(gateway.pool);
    const body = JSON.stringify({ event: 'signup', email: 'proxy@example.test' });
    const headers = (requestId: string) =>
      headersFor(plaintext, uniqueIp(), { 'content-type': 'application/json', 'x-request-id': requestId, 'idempotency-key': `key-${requestId}` });
    const seenWith = (requestId: string) => events.seen.find((request) => request.headers['x-request-id'] === requestId);

    const accepted = await fetch(`${gateway.eventsUrl}/v1/events?source=app`, { method: 'POST', headers: headers('req-events'), body });
    expect([accepted.status, accepted.headers.get('x-request-id')]).toEqual([201, 'req-events']);
    rateHeaders(accepted);
    const seen = seenWith('req-events')!;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/events?source=app', body, accountId });
    expect([seen.headers['idempotency-key'], seen.headers.authorization]).toEqual(['key-req-events', undefined]);

    // Another method, a sub-path, the path in another case (Express's way): all the events service's to answer.
    await fetch(`${gateway.eventsUrl}/v1/events/extra`, { headers: headers('req-events-get') });
    expect(seenWith('req-events-get')).toMatchObject({ method: 'GET', url: '/v1/events/extra', accountId });
    expect((await fetch(`${gateway.eventsUrl}/V1/Events`, { method: 'POST', headers: headers('req-events-case'), body })).status).toBe(201);
    expect(seenWith('req-events-case')).toMatchObject({ url: '/V1/Events', body, accountId });

    // Nothing else reaches it, and it is reached from nowhere else.
    expect((await fetch(`${gateway.eventsUrl}/v1/other`, { method: 'POST', headers: headers('req-other'), body })).status).toBe(404);
    expect((await fetch(`${gateway.url}/v1/events`, { method: 'POST', headers: headers('req-rest'), body })).status).toBe(404);
    expect((await fetch(`${gateway.eventsUrl}/api/v1/contacts`, { headers: headers('req-contacts') })).status).toBe(404);
    expect(events.seen.filter((request) => !/^\/(v1\/events|t\/)/i.test(request.url))).toEqual([]);
    for (const upstream of [contacts, campaigns, automation]) expect(upstream.seen.filter((request) => /^\/v1\//i.test(request.url))).toEqual([]);
  });

  it('answers unknown routes with 404 JSON, behind the key under /api/v1', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const known = await fetch(`${gateway.url}/api/v1/unknown`, { headers: headersFor(plaintext, uniqueIp()) });
    expect(known.status).toBe(404);
    expect(await known.json()).toEqual({ error: 'route not found' });
    expect((await fetch(`${gateway.url}/api/v1/unknown`, { headers: headersFor(undefined, uniqueIp()) })).status).toBe(401);
    const outside = await fetch(`${gateway.url}/elsewhere`, { headers: headersFor(undefined, uniqueIp()) });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ error: 'route not found' });
  });

  it('answers 503 JSON at once when an upstream is down, and 504 when it is too slow', async () => {
    const closed = await startFakeUpstream();
    await closed.close();
    const broken = await startGateway({
      CONTACTS_SERVICE_URL: closed.url,
      EVENTS_SERVICE_URL: closed.url,
      CAMPAIGNS_SERVICE_URL: contacts.url,
      UPSTREAM_TIMEOUT_MS: '300',
    });
    const { plaintext } = await aKey(broken.pool);
    const started = Date.now();
    const down = await fetch(`${broken.url}/api/v1/contacts`, { headers: headersFor(plaintext, uniqueIp()) });
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: 'contacts service unavailable' });
    expect(down.headers.get('retry-after')).toBe('5');
    rateHeaders(down);
    expect(Date.now() - started).toBeLessThan(2000);
    const event = await fetch(`${broken.eventsUrl}/v1/events`, {
      method: 'POST',
      headers: headersFor(plaintext, uniqueIp(), { 'content-type': 'application/json' }),
      body: JSON.stringify({ event: 'signup', email: 'down@example.test' }),
    });
    expect([event.status, event.headers.get('retry-after'), await event.json()]).toEqual([503, '5', { error: 'events service unavailable' }]);
    const slow = await fetch(`${broken.url}/api/v1/campaigns/slow`, { headers: headersFor(plaintext, uniqueIp()) });
    expect(slow.status).toBe(504);
    expect(await slow.json()).toEqual({ error: 'campaigns service timed out' });
    rateHeaders(slow);
  });
});
