import { IDENTITY_HEADER, signIdentity } from '@mailer/shared';
import { TEST_SIGNING_SECRET, signedIdentityFor, waitFor } from '@mailer/testing';
import { newAccountId, startEventsHarness, type EventsHarness } from './support/events-harness';

describe('POST /v1/events', () => {
  let harness: EventsHarness;
  beforeAll(async () => {
    harness = await startEventsHarness();
  });
  afterAll(async () => harness.stop());

  it('answers 202 with the accepted event only after publishing product_event.received.v1', async () => {
    const account = newAccountId();
    const response = await harness.post(account, { event: 'signup', email: ' Ann@Example.TEST ', properties: { plan: 'trial', seats: 3 } }, {}, 'req-abc-1');
    expect(response.status).toBe(202);
    const { data } = (await response.json()) as { data: { id: string; event: string; email: string; received_at: string } };
    expect(data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), event: 'signup', email: 'Ann@example.test', received_at: expect.stringMatching(/Z$/) });
    const message = await waitFor(() => harness.published.find((event) => event.event_id === data.id));
    expect(message).toEqual({
      event_id: data.id,
      account_id: account,
      event: 'signup',
      email: 'Ann@example.test',
      properties: { plan: 'trial', seats: 3 },
      received_at: data.received_at,
      request_id: 'req-abc-1',
    });
  });

  it('publishes an event without properties with an empty properties object', async () => {
    const account = newAccountId();
    const response = await harness.post(account, { event: 'login', email: 'bob@example.test' });
    expect(response.status).toBe(202);
    const { data } = (await response.json()) as { data: { id: string } };
    const message = await waitFor(() => harness.published.find((event) => event.event_id === data.id));
    expect(message.properties).toEqual({});
  });

  it('answers 400 for a body that is not JSON or not an object', async () => {
    const account = newAccountId();
    const notJson = await harness.post(account, '{"event": ');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: expect.any(String) });
    expect((await harness.post(account, [{ event: 'x', email: 'a@example.test' }])).status).toBe(400);
    expect((await harness.post(account, '"text"')).status).toBe(400);
  });

  it('answers 422 listing every invalid field', async () => {
    const account = newAccountId();
    const response = await harness.post(account, { event: '', email: 'not-an-email', properties: 'x' });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: string[] };
    expect(body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^event /), 'email is invalid', expect.stringMatching(/^properties /)]),
    );
    const missing = await harness.post(account, {});
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: string[] }).errors).toHaveLength(2);
    expect((await harness.post(account, { event: 'e'.repeat(101), email: 'a@example.test' })).status).toBe(422);
    expect((await harness.post(account, { event: 'e'.repeat(100), email: 'a@example.test' })).status).toBe(202);
  });

  it('reads an empty body as the JSON parser does: declared JSON, 422 naming the missing fields; otherwise 400', async () => {
    const account = newAccountId();
    const asJson = await harness.post(account, '');
    expect([asJson.status, ((await asJson.json()) as { errors: string[] }).errors]).toEqual([422, [expect.stringMatching(/^event /), expect.stringMatching(/^email /)]]);
    const asText = await harness.post(account, '', { 'content-type': 'text/plain' });
    expect([asText.status, await asText.json()]).toEqual([400, { error: 'request body must be a JSON object' }]);
  });

  it('accepts 100 properties and refuses 101 with 422', async () => {
    const account = newAccountId();
    const properties = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, i]));
    expect((await harness.post(account, { event: 'x', email: 'a@example.test', properties: properties(100) })).status).toBe(202);
    const tooMany = await harness.post(account, { event: 'x', email: 'a@example.test', properties: properties(101) });
    expect(tooMany.status).toBe(422);
    expect(await tooMany.json()).toEqual({ errors: ['properties must have at most 100 entries'] });
  });

  it('refuses NUL anywhere in the event (Postgres could never store it downstream) with 422 and publishes nothing', async () => {
    const account = newAccountId();
    const bodies = [
      { event: 'sign\u0000up', email: 'a@example.test' },
      { event: 'signup', email: 'a@example.test', properties: { first_name: 'Ada\u0000' } },
      { event: 'signup', email: 'a@example.test', properties: { 'key\u0000': 1 } },
      { event: 'signup', email: 'a@example.test', properties: { nested: { list: ['ok', 'bad\u0000'] } } },
    ];
    for (const body of bodies) {
      const response = await harness.post(account, body);
      expect(response.status).toBe(422);
      expect(((await response.json()) as { errors: string[] }).errors[0]).toMatch(/NUL/);
    }
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(0);
  });

  it('answers 413 for a body above 64 KiB and publishes nothing', async () => {
    const account = newAccountId();
    const response = await harness.post(account, { event: 'big', email: 'a@example.test', properties: { blob: 'x'.repeat(65 * 1024) } });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: expect.any(String) });
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(0);
  });

  it('answers 422 for properties past 32 KiB of JSON (under the body limit) and publishes nothing', async () => {
    const account = newAccountId();
    const response = await harness.post(account, { event: 'big', email: 'a@example.test', properties: { blob: 'x'.repeat(33 * 1024) } });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ errors: ['properties must be at most 32768 bytes as JSON'] });
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(0);
  });

  it.each([
    ['an address at a domain that does not exist (NXDOMAIN)', 'ann@missing.test', 'no_mx'],
    ['an address at a domain with no MX or A record', 'ann@empty.test', 'no_mx'],
    ['an address at a disposable provider', 'ann@mailinator.com', 'disposable'],
  ])('answers 422 with contacts\' error body for %s and publishes nothing', async (_case, email, domainError) => {
    const account = newAccountId();
    const response = await harness.post(account, { event: 'signup', email });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ errors: [expect.stringMatching(/^email domain /)], domain_error: domainError });
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(0);
  });

  it.each(['m@foo-.com', 'a@b', 'two@@example.test', 'line\r\nbreak@example.test'])('answers 422 "email is invalid" for %j', async (email) => {
    const response = await harness.post(newAccountId(), { event: 'signup', email });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ errors: ['email is invalid'] });
  });

  it('answers 415 for a body that is not JSON, whatever it holds', async () => {
    const account = newAccountId();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await harness.post(account, { event: 'signup', email: 'a@example.test' }, { 'content-type': contentType });
      expect([contentType, response.status]).toEqual([contentType, 415]);
      expect(await response.json()).toEqual({ error: 'request body must be JSON (Content-Type: application/json)' });
    }
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(0);
  });

  it('refuses a request without a valid gateway signature (none, forged, signed for another body, stale) with 401 and publishes nothing', async () => {
    const account = newAccountId();
    const body = JSON.stringify({ event: 'signup', email: 'unsigned@example.test' });
    const send = (identity: string | undefined) =>
      fetch(`${harness.service.url}/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(identity === undefined ? {} : { [IDENTITY_HEADER]: identity }) },
        body,
      });
    const forBody = (signed: string, nowSeconds?: number) =>
      signIdentity({ accountId: account, requestId: 'r' }, { method: 'POST', path: '/v1/events', body: Buffer.from(signed) }, TEST_SIGNING_SECRET, nowSeconds);
    for (const identity of [undefined, 'v2.forged', forBody('{"event":"other"}'), forBody(body, Math.floor(Date.now() / 1000) - 60)]) {
      const response = await send(identity);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'unauthorized' });
    }
    await harness.settle();
    expect(harness.publishedFor(account)).toEqual([]);
  });

  it('answers other methods with 405 and other paths under /v1 with 404, as JSON', async () => {
    const signedFetch = (method: string, path: string) => {
      const url = `${harness.service.url}${path}`;
      return fetch(url, { method, headers: { [IDENTITY_HEADER]: signedIdentityFor(newAccountId(), { method, url }) } });
    };
    const get = await signedFetch('GET', '/v1/events');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect(await get.json()).toEqual({ error: expect.any(String) });
    for (const path of ['/v1/events/extra', '/v1/other']) {
      const other = await signedFetch('POST', path);
      expect([path, other.status]).toEqual([path, 404]);
      expect(await other.json()).toEqual({ error: 'route not found' });
    }
  });
});
