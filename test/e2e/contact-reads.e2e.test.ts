import { randomBytes } from 'node:crypto';
import { createLogger } from '@mailer/shared';
import { waitFor } from '@mailer/shared/testing';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGatewayService } from '../../services/gateway/src/gateway-service';
import { startProduct, type Product } from './stack-harness';

type Gateway = Awaited<ReturnType<typeof startGatewayService>>;

/**
 * Contacts' public reads and creates are answered in the gateway's process (CONTACTS_READS=in-process,
 * the default) with contacts' own code against its database. These tests hold them to the answers
 * the contacts service itself gives, and to the operating contract when that database is not there.
 */
describe('contact reads and creates answered in the gateway', () => {
  let product: Product;
  const extraGateways: Gateway[] = [];

  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(extraGateways.map((gateway) => gateway.stop()));
    await product?.stop();
  });

  /** Another gateway on this product's databases (so the same keys work), with its own settings. */
  async function gatewayWith(env: Record<string, string>): Promise<Gateway> {
    const gateway = await startGatewayService(
      loadGatewayConfig({
        ...product.env,
        GATEWAY_PORT: '0',
        EVENTS_PORT: '0',
        CONTACTS_SERVICE_URL: product.contacts.url,
        CAMPAIGNS_SERVICE_URL: product.campaigns.url,
        AUTOMATION_SERVICE_URL: product.automation.url,
        WEB_SERVICE_URL: 'http://127.0.0.1:1',
        REDIS_KEY_PREFIX: `${product.env.REDIS_KEY_PREFIX ?? ''}gw${randomBytes(3).toString('hex')}:`,
        ...env,
      }),
      createLogger('gateway', { level: 'silent' }),
    );
    extraGateways.push(gateway);
    return gateway;
  }

  async function call(base: string, key: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      retryAfter: response.headers.get('retry-after'),
      limited: response.headers.get('x-ratelimit-limit') !== null,
      headerNames: [...response.headers.keys()].sort(),
      body: (await response.json()) as unknown,
    };
  }

  it('answers every read exactly as the contacts service does, errors and edge forms included', async () => {
    const proxied = await gatewayWith({ CONTACTS_READS: 'proxy' });
    const { key } = await product.anAccountWithKey();
    const other = await product.anAccountWithKey();
    const ids: number[] = [];
    for (const [index, email] of [
      'ada@example.test',
      'grace@example.test',
      'Alan_100@example.test',
    ].entries()) {
      const created = await product.api(key, 'POST', '/contacts', {
        email,
        first_name: `N${index}`,
        subscribed: index !== 1,
        tags: index === 0 ? ['vip', 'beta'] : [],
        custom_properties: { plan: 'pro', seats: index },
      });
      expect(created.status).toBe(201);
      ids.push((created.body?.data as { id: number }).id);
    }
    const foreign = await product.api(other.key, 'POST', '/contacts', { email: 'ada@example.test' });
    const foreignId = (foreign.body?.data as { id: number }).id;

    const paths = [
      `/contacts/${ids[0]}`,
      `/contacts/${ids[2]}?ignored=1`,
      `/contacts/${foreignId}`,
      '/contacts/0',
      '/contacts/abc',
      '/contacts/1234567890123456',
      `/contacts/%3${String(ids[1]).slice(-1)}`,
      '/contacts',
      '/contacts/',
      '/contacts?q=EXAMPLE&per_page=2&page=2',
      '/contacts?q=%25',
      '/contacts?q=_',
      '/contacts?subscribed=false',
      '/contacts?tag=VIP',
      '/contacts?page=999',
      '/contacts?per_page=1000',
      '/contacts?q=a&q=b',
      '/contacts?subscribed=maybe&page=0&per_page=x',
      `/contacts?tag=${'t'.repeat(101)}`,
    ];
    for (const path of paths) {
      const inProcess = await call(product.gateway.url, key, 'GET', path);
      const viaService = await call(proxied.url, key, 'GET', path);
      expect({ path, ...inProcess }).toEqual({ path, ...viaService });
      expect(inProcess.limited).toBe(true);
    }
    // The comparison covered each kind of answer.
    const statuses = new Set(
      await Promise.all(
        paths.map(async (path) => (await call(product.gateway.url, key, 'GET', path)).status),
      ),
    );
    expect([...statuses].sort()).toEqual([200, 404, 422]);
  });

  /** A create with a raw body, its answer with what differs between two creates (ids, times, the address) made alike. */
  async function create(base: string, key: string, body: string, contentType = 'application/json') {
    const response = await fetch(`${base}/api/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      body,
    });
    const text = (await response.text())
      .replace(/"(id)":\d+/g, '"$1":0')
      .replace(/"(created_at|updated_at)":"[^"]+"/g, '"$1":"T"')
      .replace(/case\d+-(in|out)@/g, 'case@');
    return { status: response.status, contentType: response.headers.get('content-type'), headerNames: [...response.headers.keys()].sort(), body: text };
  }

  it('answers every create exactly as the contacts service does, errors and edge forms included', async () => {
    const proxied = await gatewayWith({ CONTACTS_READS: 'proxy' });
    const { key } = await product.anAccountWithKey();
    expect((await product.api(key, 'POST', '/contacts', { email: 'taken@example.test' })).status).toBe(201);
    const cases: Array<[name: string, body: (email: string) => string, contentType?: string]> = [
      ['full', (email) => JSON.stringify({ email, first_name: 'Ada', last_name: 'L', subscribed: true, tags: ['vip', 'VIP', 'beta'], custom_properties: { plan: 'pro', seats: 3 } })],
      ['nested', (email) => JSON.stringify({ contact: { email, first_name: 'Nes' }, tags: ['x'] })],
      ['conflicting forms', (email) => JSON.stringify({ email, contact: { email: `other.${email}` } })],
      ['taken', () => JSON.stringify({ email: 'taken@example.test' })],
      ['not an address', () => JSON.stringify({ email: 'not-an-address' })],
      ['no email', () => JSON.stringify({ first_name: 'Nobody' })],
      ['wrong types', (email) => JSON.stringify({ email, subscribed: 'yes', tags: 'vip', custom_properties: [] })],
      ['too many properties', (email) => JSON.stringify({ email, custom_properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, i])) })],
      ['an array', () => '[]'],
      ['null', () => 'null'],
      ['malformed', () => '{"email":'],
      ['not JSON media', (email) => JSON.stringify({ email }), 'text/plain'],
      ['charset', (email) => JSON.stringify({ email }), 'application/json; charset=utf-8'],
    ];
    for (const [index, [name, body, contentType]] of cases.entries()) {
      const inProcess = await create(product.gateway.url, key, body(`case${index}-in@example.test`), contentType);
      const viaService = await create(proxied.url, key, body(`case${index}-out@example.test`), contentType);
      expect({ name, ...inProcess }).toEqual({ name, ...viaService });
    }
    const statuses = new Set(await Promise.all(cases.map(async ([, body, contentType], index) => (await create(product.gateway.url, key, body(`again${index}@example.test`), contentType)).status)));
    expect([...statuses].sort()).toEqual([201, 400, 415, 422]);
  });

  it('creates and reads a contact without the contacts service, which still answers every other write; its fact follows', async () => {
    const { key } = await product.anAccountWithKey();
    // Nothing listens on port 9: only what this process answers itself can succeed.
    const alone = await gatewayWith({ CONTACTS_SERVICE_URL: 'http://127.0.0.1:9' });
    const created = await call(alone.url, key, 'POST', '/contacts', { email: 'alone@example.test', tags: ['solo'] });
    expect(created).toMatchObject({ status: 201, limited: true, body: { data: { email: 'alone@example.test', tags: ['solo'] } } });
    const id = (created.body as { data: { id: number } }).data.id;
    // contact.created went into contacts' outbox with the row; contacts' relay published it to automation.
    await waitFor(
      async () => ((await product.automation.pool.query('SELECT 1 FROM contacts WHERE contact_id = $1', [id])).rowCount === 1 ? true : undefined),
      { what: "automation's copy of the contact" },
    );
    expect((await call(alone.url, key, 'PATCH', `/contacts/${id}`, { first_name: 'Solo' })).status).toBe(503);
    // A gateway that does not upsert the events' contacts writes none of contacts' rows: its creates go to the service.
    const readOnly = await gatewayWith({ CONTACTS_SERVICE_URL: 'http://127.0.0.1:9', PRODUCT_EVENTS_UPSERTED_BY: 'automation' });
    expect(await call(readOnly.url, key, 'POST', '/contacts', { email: 'proxied@example.test' })).toMatchObject({
      status: 503,
      body: { error: 'contacts service unavailable' },
    });
    expect((await call(readOnly.url, key, 'GET', `/contacts/${id}`)).status).toBe(200);
  });

  it('reads a contact without the contacts service, which still answers every write', async () => {
    const { key } = await product.anAccountWithKey();
    const created = await product.api(key, 'POST', '/contacts', {
      email: 'reader@example.test',
      tags: ['one'],
    });
    const id = (created.body?.data as { id: number }).id;
    // Nothing listens on port 9: only what this process answers itself can succeed.
    const alone = await gatewayWith({ CONTACTS_SERVICE_URL: 'http://127.0.0.1:9' });

    const read = await call(alone.url, key, 'GET', `/contacts/${id}`);
    expect(read).toMatchObject({
      status: 200,
      body: { data: { id, email: 'reader@example.test', tags: ['one'] } },
    });
    expect((await call(alone.url, key, 'GET', '/contacts?q=reader')).body).toMatchObject({ data: [{ id }] });

    const write = await call(alone.url, key, 'PATCH', `/contacts/${id}`, { first_name: 'Read' });
    expect(write).toMatchObject({
      status: 503,
      retryAfter: '5',
      body: { error: 'contacts service unavailable' },
    });
  });

  it('answers 503 with Retry-After to reads and creates while contacts has not made its database, and serves the rest', async () => {
    const { key } = await product.anAccountWithKey();
    const missing = new URL(product.env.POSTGRES_URL!);
    missing.pathname = `/no_such_database_${randomBytes(3).toString('hex')}`;
    const early = await gatewayWith({ CONTACTS_DATABASE_URL: missing.toString() });
    for (const path of ['/contacts/1', '/contacts']) {
      const answer = await call(early.url, key, 'GET', path);
      expect(answer).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: 'service temporarily unavailable' },
        limited: true,
      });
    }
    expect(await call(early.url, key, 'POST', '/contacts', { email: 'early@example.test' })).toMatchObject({
      status: 503,
      retryAfter: '5',
      body: { error: 'service temporarily unavailable' },
    });
    expect((await call(early.url, key, 'GET', '/campaigns')).status).toBe(200);
  });

  it("answers 503 with Retry-After when contacts' Postgres cannot be reached", async () => {
    const { key } = await product.anAccountWithKey();
    const unreachable = await gatewayWith({
      CONTACTS_DATABASE_URL: 'postgres://postgres@127.0.0.1:9/contacts',
    });
    const answer = await call(unreachable.url, key, 'GET', '/contacts/1');
    expect(answer).toMatchObject({
      status: 503,
      retryAfter: '5',
      body: { error: 'service temporarily unavailable' },
    });
  });
});
