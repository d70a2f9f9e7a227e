import { startProduct, type Product } from './stack-harness';

interface Answer {
  status: number;
  allow: string | null;
  body: unknown;
}

/**
 * One shape and one wording style for every refusal, whichever service gives it: `{ error }`
 * (or `{ errors: [...] }` for a 422, plus `domain_error` for a refused address), sentences in
 * lower case without a closing full stop.
 */
function expectErrorShape(answer: Answer) {
  const body = answer.body as Record<string, unknown>;
  const messages = answer.status === 422 ? (body.errors as unknown[]) : [body.error];
  expect(Object.keys(body).filter((key) => !['error', 'errors', 'domain_error'].includes(key))).toEqual([]);
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) {
    expect(typeof message).toBe('string');
    expect(message).toMatch(/^[a-z_.0-9]/);
    expect(message).not.toMatch(/\.$/);
  }
}

describe('statuses and error bodies across the interface, through the gateway', () => {
  let product: Product;
  let key: string;
  beforeAll(async () => {
    // Limits of its own (its own Redis keys): its volume must not spend other files' per-IP window.
    product = await startProduct({ gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '1000000', RATE_LIMIT_KEY_PER_MIN: '1000000', REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? ''}statuses-${Date.now()}:` } });
    ({ key } = await product.anAccountWithKey());
  }, 60_000);
  afterAll(() => product?.stop());

  async function send(url: string, method: string, body?: string, contentType = 'application/json', auth = true): Promise<Answer> {
    const response = await fetch(url, {
      method,
      headers: { ...(auth ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': contentType }) },
      body,
    });
    const text = await response.text();
    return { status: response.status, allow: response.headers.get('allow'), body: text ? (JSON.parse(text) as unknown) : undefined };
  }
  const rest = (path: string) => `${product.gateway.url}/api/v1${path}`;
  const events = () => `${product.gateway.eventsUrl}/v1/events`;

  it('writes to campaigns are 405 with Allow whatever the body', async () => {
    const bodies: Array<[string | undefined, string]> = [
      [undefined, 'application/json'],
      ['{"name":"x"}', 'application/json'],
      ['not json', 'text/plain'],
      ['{"broken', 'application/json'],
      [JSON.stringify({ name: 'x'.repeat(100_000) }), 'application/json'],
    ];
    for (const path of ['/campaigns', '/campaigns/1']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        for (const [body, contentType] of bodies) {
          const answer = await send(rest(path), method, body, contentType);
          expect([path, method, contentType, answer.status]).toEqual([path, method, contentType, 405]);
          expect(answer.allow).toMatch(/^GET/);
          expectErrorShape(answer);
        }
      }
    }
  });

  it('every other 405 carries Allow too', async () => {
    for (const [url, method, allowed] of [
      [rest('/contacts'), 'PUT', 'GET, POST'],
      [rest('/contacts'), 'DELETE', 'GET, POST'],
      [rest('/contacts/1'), 'POST', 'GET, PATCH, DELETE'],
      [events(), 'GET', 'POST'],
    ] as const) {
      const answer = await send(url, method);
      expect([url, method, answer.status, answer.allow]).toEqual([url, method, 405, allowed]);
      expectErrorShape(answer);
    }
  });

  it('a body that is not JSON is 415 on every body-carrying operation', async () => {
    const created = await send(rest('/contacts'), 'POST', JSON.stringify({ email: 'status-415@example.test' }));
    const id = (created.body as { data: { id: number } }).data.id;
    for (const [url, method, body] of [
      [rest('/contacts'), 'POST', JSON.stringify({ email: 'other-415@example.test' })],
      [rest(`/contacts/${id}`), 'PATCH', JSON.stringify({ first_name: 'X' })],
      [events(), 'POST', JSON.stringify({ event: 'signup', email: 'e-415@example.test' })],
    ] as const) {
      const answer = await send(url, method, body, 'text/plain');
      expect([url, method, answer.status]).toEqual([url, method, 415]);
      expectErrorShape(answer);
    }
    expect(((await send(rest('/contacts'), 'GET')).body as { meta: { total_count: number } }).meta.total_count).toBe(1);
  });

  it('a body past its limit is 413 (contacts and events: 64 KiB)', async () => {
    for (const [url, body] of [
      [rest('/contacts'), JSON.stringify({ email: 'big@example.test', source: 'x'.repeat(70_000) })],
      [events(), JSON.stringify({ event: 'signup', email: 'big@example.test', properties: { blob: 'x'.repeat(70_000) } })],
    ] as const) {
      const answer = await send(url, 'POST', body);
      expect([url, answer.status]).toEqual([url, 413]);
      expectErrorShape(answer);
    }
  });

  it('422s: a field given flat and nested with different values, an address contacts and events both refuse', async () => {
    const conflict = await send(rest('/contacts'), 'POST', JSON.stringify({ email: 'a@example.test', contact: { email: 'b@example.test' } }));
    expect(conflict).toMatchObject({ status: 422, body: { errors: ['email is given both flat and under contact, with different values'] } });
    expectErrorShape(conflict);
    for (const email of ['m@foo-.com', 'ann@missing.test', 'ann@mailinator.com']) {
      const contact = await send(rest('/contacts'), 'POST', JSON.stringify({ email }));
      const event = await send(events(), 'POST', JSON.stringify({ event: 'signup', email }));
      expect([email, event.status, event.body]).toEqual([email, 422, contact.body]);
      expectErrorShape(event);
    }
  });

  it('401, 404 and 400 share the shape', async () => {
    expectErrorShape(await send(rest('/contacts'), 'GET', undefined, undefined, false));
    expectErrorShape(await send(rest('/contacts/999999999'), 'GET'));
    expectErrorShape(await send(rest('/nowhere'), 'GET'));
    expectErrorShape(await send(rest('/contacts'), 'POST', '[1]'));
    expectErrorShape(await send(events(), 'POST', '{"broken'));
    expectErrorShape(await send(rest('/campaigns?status=archived'), 'GET'));
  });
});
