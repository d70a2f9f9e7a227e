import { aKey, anAccount, utcDay } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import {
  expectNoKeyInLogs,
  capturedLogs,
  headersFor,
  rateHeaders,
  startGateway,
  stopGateways,
  uniqueIp,
  type Gateway,
} from './support/gateway-harness';
import { revokeApiKey } from '../src/domain/manage-api-keys';
import { markRevokedInRedis } from '../src/data-access/revocation-marker';
import { generateKey, keyWithParts } from '../src/domain/api-key-format';

const UNAUTHORIZED = { error: 'invalid or missing API key' };

describe('API key authentication', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: Gateway;
  let second: Gateway;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const env = { CONTACTS_SERVICE_URL: upstream.url, EVENTS_SERVICE_URL: upstream.url };
    [gateway, second] = await Promise.all([startGateway(env), startGateway(env)]);
  });
  afterAll(async () => {
    await stopGateways();
    await upstream.close();
    expectNoKeyInLogs();
  });

  const get = (key: string | undefined, base = gateway.url, path = '/api/v1/contacts', extra = {}) =>
    fetch(`${base}${path}`, { headers: headersFor(key, uniqueIp(), extra) });

  async function expectUnauthorized(response: Response) {
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(UNAUTHORIZED);
    // A 401 describes the per-IP window (300/min by default), never a key's.
    expect(rateHeaders(response).limit).toBe(300);
  }

  it('answers 200 for a valid key and passes the account in the signed identity', async () => {
    const { plaintext, accountId } = await aKey(gateway.pool);
    const response = await get(plaintext);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { account_id: number }).account_id).toBe(accountId);
  });

  it('answers 401 with the same body without an Authorization header', async () => {
    await expectUnauthorized(await get(undefined));
  });

  it('answers 401 for a scheme other than Bearer', async () => {
    const { plaintext } = await aKey(gateway.pool);
    await expectUnauthorized(await get(undefined, gateway.url, '/api/v1/contacts', { authorization: `Basic ${plaintext}` }));
    await expectUnauthorized(await get(undefined, gateway.url, '/api/v1/contacts', { authorization: plaintext }));
  });

  it('answers 401 for a malformed key and for a key whose checksum does not hold', async () => {
    const { plaintext } = await aKey(gateway.pool);
    await expectUnauthorized(await get('mk_live_short'));
    const lastChar = plaintext.at(-1) === 'A' ? 'B' : 'A';
    await expectUnauthorized(await get(`${plaintext.slice(0, -1)}${lastChar}`));
  });

  it('answers 401 for a well-formed key that was never issued', async () => {
    await expectUnauthorized(await get(generateKey().plaintext));
  });

  it('answers 401 for a known key id with a wrong secret (checksum recomputed)', async () => {
    const { record } = await aKey(gateway.pool);
    const forged = keyWithParts(record.keyId, generateKey().secret);
    await expectUnauthorized(await get(forged));
  });

  it('answers 401 for a key that expired yesterday and 200 for one that expires today', async () => {
    const yesterday = await aKey(gateway.pool, { expiresOn: utcDay(-1) });
    const today = await aKey(gateway.pool, { expiresOn: utcDay(0) });
    const tomorrow = await aKey(gateway.pool, { expiresOn: utcDay(1) });
    await expectUnauthorized(await get(yesterday.plaintext));
    expect((await get(today.plaintext)).status).toBe(200);
    expect((await get(tomorrow.plaintext)).status).toBe(200);
  });

  it('answers 403 for a key of a free-plan account', async () => {
    const { plaintext } = await aKey(gateway.pool, { plan: 'free' });
    const response = await get(plaintext);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'your plan does not include API access' });
    rateHeaders(response);
  });

  it('answers 404 when a key of account A reads a contact of account B', async () => {
    const a = await aKey(gateway.pool);
    const b = await anAccount(gateway.pool);
    const contactOfB = 900_000 + Math.floor(Math.random() * 100_000);
    upstream.own(contactOfB, b.id);
    const response = await get(a.plaintext, gateway.url, `/api/v1/contacts/${contactOfB}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'contact not found' });
    upstream.own(contactOfB + 1, a.accountId);
    expect((await get(a.plaintext, gateway.url, `/api/v1/contacts/${contactOfB + 1}`)).status).toBe(200);
  });

  it('refuses a key revoked while cached, at once, on every gateway instance', async () => {
    const { plaintext, record } = await aKey(gateway.pool);
    // Both instances now hold the key row in their caches.
    for (const base of [gateway.url, second.url]) expect((await get(plaintext, base)).status).toBe(200);
    await revokeApiKey({ pool: gateway.pool, announceRevocation: (keyId) => markRevokedInRedis(gateway.redis, keyId) }, record.id);
    await expectUnauthorized(await get(plaintext, second.url));
    await expectUnauthorized(await get(plaintext, gateway.url));
    await expectUnauthorized(await get(plaintext, second.eventsUrl, '/v1/events'));
  });

  it('applies the same authentication on the events listener (only a valid key reaches the events service)', async () => {
    const { plaintext, accountId } = await aKey(gateway.pool);
    const seenBefore = upstream.seen.length;
    await expectUnauthorized(await fetch(`${gateway.eventsUrl}/v1/events`, { method: 'POST', headers: headersFor(undefined, uniqueIp()) }));
    const free = await aKey(gateway.pool, { plan: 'free' });
    expect((await fetch(`${gateway.eventsUrl}/v1/events`, { method: 'POST', headers: headersFor(free.plaintext, uniqueIp()) })).status).toBe(403);
    expect(upstream.seen.slice(seenBefore)).toEqual([]);
    const accepted = await fetch(`${gateway.eventsUrl}/v1/events`, {
      method: 'POST',
      headers: headersFor(plaintext, uniqueIp(), { 'content-type': 'application/json' }),
      body: JSON.stringify({ event: 'signup', email: 'auth@example.test' }),
    });
    expect([accepted.status, await accepted.json()]).toEqual([201, { ok: true, path: '/v1/events', account_id: accountId }]);
  });

  it('writes no key into any log line, even at trace level', async () => {
    const { plaintext } = await aKey(gateway.pool);
    await get(plaintext);
    await get(`${plaintext.slice(0, -2)}zz`);
    await get(plaintext.replace(/.$/, '0'));
    expect(capturedLogs.length).toBeGreaterThan(0);
    expectNoKeyInLogs();
  });
});
