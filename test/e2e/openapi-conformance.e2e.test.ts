import { randomBytes, randomInt } from 'node:crypto';
import { importCampaigns, prepareCampaignImport } from '../../services/campaigns/src/domain/import-campaigns';
import { requestFrom } from './from-address';
import { operationsOf, responseChecker, type Document } from './openapi-tools';
import { startProduct, type Product } from './stack-harness';

/** Statuses the document promises that no in-process run can cause on purpose (they need a dead dependency or a race). */
const NOT_PROVOKED = new Set(['sendEvent 409', '* 503']);

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

describe('every documented operation answers as the OpenAPI document says', () => {
  let product: Product;
  let document: Document;
  let check: ReturnType<typeof responseChecker>;
  const seen = new Set<string>();
  const problems: string[] = [];

  beforeAll(async () => {
    product = await startProduct();
    document = (await (await fetch(`${product.gateway.url}/api/v1/openapi.json`)).json()) as Document;
    check = responseChecker(document);
  }, 60_000);
  afterAll(() => product?.stop());

  /** One call through the gateway, its body checked against the document for the status it got. */
  async function call(operationId: string, method: string, url: string, init: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    const response = await fetch(url, {
      method,
      headers: {
        ...(init.key === undefined ? {} : { authorization: `Bearer ${init.key}` }),
        ...(init.body === undefined && init.rawBody === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const text = await response.text();
    const answer: Answer = { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
    seen.add(`${operationId} ${answer.status}`);
    problems.push(...check(operationId, answer.status, answer.body, answer.headers));
    return answer;
  }
  const rest = (path: string) => `${product.gateway.url}/api/v1${path}`;
  const events = () => `${product.gateway.eventsUrl}/v1/events`;

  it('contacts: create, list with filters, get, update, delete, and each refusal', async () => {
    const { key } = await product.anAccountWithKey();
    const email = `conform-${randomBytes(3).toString('hex')}@example.test`;
    const created = await call('createContact', 'POST', rest('/contacts'), {
      key,
      body: { contact: { email, first_name: 'Con', tags: ['a'], custom_properties: { plan: 'pro', seats: 3, beta: true } } },
    });
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: number } }).data.id;
    await call('createContact', 'POST', rest('/contacts'), { key, body: { email: `x@mx.test`, subscribed: true, source: 'api' } });
    expect((await call('createContact', 'POST', rest('/contacts'), { key, body: { email } })).status).toBe(422);
    expect(await call('createContact', 'POST', rest('/contacts'), { key, body: { email: 'someone@missing.test' } })).toMatchObject({
      status: 422,
      body: { domain_error: 'no_mx' },
    });
    expect((await call('createContact', 'POST', rest('/contacts'), { key, rawBody: '[1]' })).status).toBe(400);
    expect((await call('createContact', 'POST', rest('/contacts'), { key, rawBody: JSON.stringify({ email, source: 'x'.repeat(70_000) }) })).status).toBe(413);
    const asText = { 'content-type': 'text/plain' };
    expect((await call('createContact', 'POST', rest('/contacts'), { key, rawBody: JSON.stringify({ email }), headers: asText })).status).toBe(415);

    const listed = await call('listContacts', 'GET', rest(`/contacts?q=conform&subscribed=false&bounced=false&page=1&per_page=10`), { key });
    expect(listed).toMatchObject({ status: 200, body: { data: [{ id }], meta: { per_page: 10 } } });
    expect((await call('listContacts', 'GET', rest('/contacts?per_page=zero'), { key })).status).toBe(422);

    expect((await call('getContact', 'GET', rest(`/contacts/${id}`), { key })).status).toBe(200);
    expect((await call('getContact', 'GET', rest('/contacts/999999999'), { key })).status).toBe(404);

    expect((await call('updateContact', 'PATCH', rest(`/contacts/${id}`), { key, body: { contact: { last_name: null, tags: ['b'] } } })).status).toBe(200);
    expect((await call('updateContact', 'PATCH', rest(`/contacts/${id}`), { key, body: { email: 'not an email' } })).status).toBe(422);
    expect((await call('updateContact', 'PATCH', rest(`/contacts/${id}`), { key, rawBody: '"text"' })).status).toBe(400);
    expect((await call('updateContact', 'PATCH', rest(`/contacts/${id}`), { key, rawBody: JSON.stringify({ source: 'x'.repeat(70_000) }) })).status).toBe(413);
    expect((await call('updateContact', 'PATCH', rest(`/contacts/${id}`), { key, rawBody: '{}', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await call('updateContact', 'PATCH', rest('/contacts/999999999'), { key, body: { first_name: 'N' } })).status).toBe(404);

    expect((await call('deleteContact', 'DELETE', rest(`/contacts/${id}`), { key })).status).toBe(204);
    expect((await call('deleteContact', 'DELETE', rest(`/contacts/${id}`), { key })).status).toBe(404);
  });

  it('campaigns: list with filters, get, and each refusal', async () => {
    const { key, accountId } = await product.anAccountWithKey();
    const [sentId] = await importCampaigns(
      product.campaigns.pool,
      accountId,
      prepareCampaignImport([
        { name: 'Spring', title: 'Spring sale', status: 'sent', emails_sent: 10, sent_at: '2026-03-01T10:00:00Z' },
        { name: 'Draft', title: 'Later', status: 'draft' },
      ]),
    );
    const listed = await call('listCampaigns', 'GET', rest('/campaigns?status=sent&q=Spring&page=1&per_page=5'), { key });
    expect(listed).toMatchObject({ status: 200, body: { data: [{ id: sentId }], meta: { total_count: 1 } } });
    expect((await call('listCampaigns', 'GET', rest('/campaigns'), { key })).status).toBe(200);
    expect((await call('listCampaigns', 'GET', rest('/campaigns?status=archived'), { key })).status).toBe(422);
    expect((await call('getCampaign', 'GET', rest(`/campaigns/${sentId}`), { key })).status).toBe(200);
    expect((await call('getCampaign', 'GET', rest('/campaigns/999999999'), { key })).status).toBe(404);
  });

  it('events: accepted, replayed with an Idempotency-Key, and each refusal', async () => {
    const { key } = await product.anAccountWithKey();
    const body = { event: 'trial_started', email: 'event-conform@example.test', properties: { plan: 'pro' } };
    expect((await call('sendEvent', 'POST', events(), { key, body })).status).toBe(202);
    const idempotency = { 'Idempotency-Key': `conform-${randomBytes(4).toString('hex')}` };
    expect((await call('sendEvent', 'POST', events(), { key, body, headers: idempotency })).status).toBe(202);
    const replay = await call('sendEvent', 'POST', events(), { key, body, headers: idempotency });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('sendEvent', 'POST', events(), { key, body: { ...body, event: 'other' }, headers: idempotency })).status).toBe(422);
    expect((await call('sendEvent', 'POST', events(), { key, body: { email: 'nope' } })).status).toBe(422);
    expect((await call('sendEvent', 'POST', events(), { key, rawBody: '[]' })).status).toBe(400);
    expect((await call('sendEvent', 'POST', events(), { key, rawBody: JSON.stringify({ ...body, properties: { blob: 'x'.repeat(70_000) } }) })).status).toBe(413);
    expect((await call('sendEvent', 'POST', events(), { key, rawBody: JSON.stringify(body), headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('every operation: 401 without a key and 403 for a plan without API access', async () => {
    const free = await product.anAccountWithKey('free');
    for (const { path, method, operation } of operationsOf(document)) {
      const url = path === '/v1/events' ? events() : rest(path.replace('{id}', '1'));
      const body = method === 'post' || method === 'patch' ? {} : undefined;
      expect((await call(operation.operationId, method.toUpperCase(), url, { body })).status).toBe(401);
      expect((await call(operation.operationId, method.toUpperCase(), url, { key: free.key, body })).status).toBe(403);
    }
  });

  it('every operation: 429 with Retry-After once its address has spent the per-IP window', async () => {
    // An address of its own, so the other tests (all from 127.0.0.1) keep their window.
    const address = `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;
    let remaining = Number.POSITIVE_INFINITY;
    while (remaining > 0) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => requestFrom(address, `${product.gateway.url}/api/v1/openapi.json`, 'HEAD')));
      remaining = Math.min(...batch.map((answer) => Number(answer.headers.get('x-ratelimit-remaining') ?? 0)));
    }
    const { key } = await product.anAccountWithKey();
    for (const { path, method, operation } of operationsOf(document)) {
      const url = path === '/v1/events' ? events() : rest(path.replace('{id}', '1'));
      const answer = await requestFrom(address, url, method.toUpperCase(), { authorization: `Bearer ${key}` });
      seen.add(`${operation.operationId} ${answer.status}`);
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('60');
      problems.push(...check(operation.operationId, answer.status, JSON.parse(answer.text) as unknown, answer.headers));
    }
    // The window spent was that address's only.
    expect((await call('listContacts', 'GET', rest('/contacts'), { key })).status).toBe(200);
  });

  afterAll(() => {
    // Runs before the product stops (afterAll hooks run in reverse order of declaration).
    expect(problems).toEqual([]);
    const missing = operationsOf(document).flatMap(({ operation }) =>
      Object.keys(operation.responses)
        .map((status) => `${operation.operationId} ${status}`)
        .filter((pair) => !seen.has(pair) && !NOT_PROVOKED.has(pair) && !NOT_PROVOKED.has(`* ${pair.split(' ')[1]}`)),
    );
    expect(missing).toEqual([]);
  });
});
