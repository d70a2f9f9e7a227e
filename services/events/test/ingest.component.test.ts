import { waitFor } from '@mailer/shared/testing';
import { newAccountId, startHarness } from './support/events-harness';

describe('POST /v1/events', () => {
  let harness: Awaited<ReturnType<typeof startHarness>>;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => harness.stop());

  it('answers 202 with the accepted event only after publishing product_event.received.v1', async () => {
    const account = newAccountId();
    const response = await harness.post(account, { event: 'signup', email: 'Ann@Example.test', properties: { plan: 'trial', seats: 3 } }, {}, 'req-abc-1');
    expect(response.status).toBe(202);
    const { data } = (await response.json()) as { data: { id: string; event: string; email: string; received_at: string } };
    expect(data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), event: 'signup', email: 'Ann@Example.test', received_at: expect.stringMatching(/Z$/) });
    const message = await waitFor(() => harness.published.find((event) => event.event_id === data.id));
    expect(message).toEqual({
      event_id: data.id,
      account_id: account,
      event: 'signup',
      email: 'Ann@Example.test',
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
      expect.arrayContaining([expect.stringMatching(/^event: /), expect.stringMatching(/^email: /), expect.stringMatching(/^properties: /)]),
    );
    const missing = await harness.post(account, {});
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: string[] }).errors).toHaveLength(2);
    expect((await harness.post(account, { event: 'e'.repeat(101), email: 'a@example.test' })).status).toBe(422);
    expect((await harness.post(account, { event: 'e'.repeat(100), email: 'a@example.test' })).status).toBe(202);
  });

  it('accepts 100 properties and refuses 101 with 422', async () => {
    const account = newAccountId();
    const properties = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, i]));
    expect((await harness.post(account, { event: 'x', email: 'a@example.test', properties: properties(100) })).status).toBe(202);
    const tooMany = await harness.post(account, { event: 'x', email: 'a@example.test', properties: properties(101) });
    expect(tooMany.status).toBe(422);
    expect(await tooMany.json()).toEqual({ errors: ['properties: must have at most 100 entries'] });
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
    await harness.settle(account);
    expect(harness.publishedFor(account)).toHaveLength(0);
  });

  it('answers 413 for a body above 64 KiB and publishes nothing', async () => {
    const account = newAccountId();
    const response = await harness.post(account, { event: 'big', email: 'a@example.test', properties: { blob: 'x'.repeat(65 * 1024) } });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: expect.any(String) });
    await harness.settle(account);
    expect(harness.publishedFor(account)).toHaveLength(0);
  });

  it('refuses a request without the gateway signature with 401', async () => {
    const response = await fetch(`${harness.service.url}/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'signup', email: 'a@example.test' }),
    });
    expect(response.status).toBe(401);
  });
});
