import fc from 'fast-check';
import { z } from 'zod';
import { answerProblem, hostileBodies, prototypeNames, rawRequest, schemaArbitrary, wrongValue, type JsonSchema, type RawResponse } from '@mailer/testing';
import { eventInputSchema, MAX_PROPERTIES_DEPTH } from '../src/domain/event-input';
import { newAccountId, startEventsHarness, type EventsHarness } from './support/events-harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const BODY_LIMIT = 64 * 1024;
const INJECTED = { id: '00000000-0000-4000-8000-000000000000', account_id: 2 ** 31 + 7, account: 2 ** 31 + 7, received_at: '2000-01-01T00:00:00.000Z' };
const REFUSALS = [400, 413, 415, 422];

const schema = z.toJSONSchema(eventInputSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Addresses that pass or fail the email check; the schema alone cannot say "well-formed email". */
const email = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}$/), fc.constantFrom('example.test', 'mx.test')).map(([local, domain]) => `${local}@${domain}`) },
  { weight: 2, arbitrary: fc.constantFrom('not-an-email', 'a@b', '@mx.test', 'a@@mx.test', 'ü@mx.test', 'a\u0000@mx.test', `${'x'.repeat(250)}@mx.test`) },
);

/** Valid bodies from the schema, then the ways clients get them wrong. */
function bodies() {
  const valid = schemaArbitrary(schema, { email }) as fc.Arbitrary<Record<string, unknown>>;
  const keys = Object.keys(schema.properties ?? {});
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 2, arbitrary: valid.map((body) => ({ ...body, ...INJECTED })) },
    { weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(...keys), wrongValue()).map(([body, key, value]) => ({ ...body, [key]: value })) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...keys, '__proto__', 'constructor'), wrongValue(), { maxKeys: 4 }) },
    { weight: 1, arbitrary: wrongValue() },
  );
}

describe('POST /v1/events under generated and hostile input', () => {
  let harness: EventsHarness;
  let owner: number;
  /** Event ids answered 202 for `owner`: each must be published exactly once, nothing else. */
  const accepted: string[] = [];
  const statuses: Record<string, Record<number, number>> = {};
  const prototypeBefore = prototypeNames();

  const send = async (label: string, request: Parameters<typeof rawRequest>[2], allowed: number[]): Promise<RawResponse> => {
    const response = await rawRequest(harness.service.url, owner, request);
    const problem = answerProblem(response, allowed);
    if (problem) throw new Error(`${label} ${request.method} ${request.path}: ${problem}`);
    const ok = response as RawResponse;
    statuses[label] = { ...statuses[label], [ok.status]: (statuses[label]?.[ok.status] ?? 0) + 1 };
    if (ok.status === 202) accepted.push((ok.json as { data: { id: string } }).data.id);
    return ok;
  };

  beforeAll(async () => {
    harness = await startEventsHarness();
    owner = newAccountId();
  });
  afterAll(async () => {
    await harness?.stop();
    process.stdout.write(`events fuzz statuses: ${JSON.stringify(statuses)}\n`);
  });

  it(`${RUNS} generated bodies: never a 5xx, every refusal a 4xx JSON, a 202 echoes the event and never a body's id`, async () => {
    await fc.assert(
      fc.asyncProperty(bodies(), async (body) => {
        const response = await send('generated', { method: 'POST', path: '/v1/events', body: Buffer.from(JSON.stringify(body) ?? 'null') }, [202, 400, 422]);
        if (response.status !== 202) return;
        const data = (response.json as { data: Record<string, unknown> }).data;
        const sent = body as Record<string, unknown>;
        expect([data.event, data.email]).toEqual([sent.event, sent.email]);
        expect(data.id).not.toBe(INJECTED.id);
        expect(data.received_at).not.toBe(INJECTED.received_at);
      }),
      { numRuns: RUNS },
    );
    expect(statuses.generated?.[202]).toBeGreaterThan(RUNS / 20);
    expect(statuses.generated?.[422]).toBeGreaterThan(RUNS / 20);
  }, 60_000);

  it('raw-body attacks: every one a 4xx JSON (413 over 64 KiB) or a 202, no prototype pollution', async () => {
    const valid = { event: 'raw_attack', email: 'raw@example.test', properties: { plan: 'pro' } };
    const nestedProperties = (depth: number) => `{"event":"deep","email":"d@example.test","properties":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const eventAttacks = [
      // 20 KB, under the limit: before the depth rule this overflowed the stack when published (500).
      { name: 'deep nesting inside properties', body: Buffer.from(nestedProperties(10_000)), contentType: 'application/json' },
      { name: 'nesting one level over the limit', body: Buffer.from(nestedProperties(MAX_PROPERTIES_DEPTH)), contentType: 'application/json' },
      { name: 'nesting at the limit', body: Buffer.from(nestedProperties(MAX_PROPERTIES_DEPTH - 1)), contentType: 'application/json' },
      { name: 'huge array inside properties', body: Buffer.from(JSON.stringify({ ...valid, properties: { list: Array.from({ length: 15_000 }, () => 1) } })), contentType: 'application/json' },
      { name: '101 properties', body: Buffer.from(JSON.stringify({ ...valid, properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, i])) })), contentType: 'application/json' },
      { name: '__proto__ as properties', body: Buffer.from('{"event":"p","email":"p@example.test","properties":{"__proto__":{"polluted":"yes"}}}'), contentType: 'application/json' },
      { name: 'body exactly at the limit', body: Buffer.from(JSON.stringify({ ...valid, properties: { blob: 'x'.repeat(BODY_LIMIT - 90) } })), contentType: 'application/json' },
    ];
    for (const attack of [...hostileBodies(valid, BODY_LIMIT), ...eventAttacks]) {
      const response = await send('raw', { method: 'POST', path: '/v1/events', body: attack.body, contentType: attack.contentType }, [202, ...REFUSALS]);
      if (attack.name.startsWith('oversize') || attack.name.startsWith('huge')) expect([attack.name, response.status]).toEqual([attack.name, attack.name.includes('properties') ? 202 : 413]);
      if ((attack.name.includes('nesting') && attack.name.includes('properties')) || attack.name.includes('over the limit')) expect([attack.name, response.status]).toEqual([attack.name, 422]);
      if (attack.name === 'nesting at the limit') expect(response.status).toBe(202);
      // JSON under another media type is refused for its type before it is read (415); bad JSON is a 400.
      if (attack.name === 'JSON sent as text/plain') expect([attack.name, response.status]).toEqual([attack.name, 415]);
      else if (attack.name.startsWith('truncated') || attack.name.startsWith('JSON ')) expect([attack.name, response.status]).toEqual([attack.name, 400]);
    }
    expect(prototypeNames()).toBe(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 30_000);

  it('a 64 KiB header is refused with a 4xx JSON, other methods are 405 JSON, and the service keeps accepting', async () => {
    const big = await rawRequest(harness.service.url, owner, { method: 'POST', path: '/v1/events', headers: { 'x-padding': 'a'.repeat(64 * 1024) } });
    expect(answerProblem(big, [431])).toBeUndefined();
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) await send('method', { method, path: '/v1/events' }, [405]);
    await send('after', { method: 'POST', path: '/v1/events', body: Buffer.from('{"event":"after","email":"after@example.test"}') }, [202]);
  });

  it('every 202 was published exactly once as product_event.received.v1, and nothing refused was published', async () => {
    await harness.settle();
    const published = harness.published.filter((event) => event.account_id === owner).map((event) => event.event_id);
    expect(accepted.length).toBeGreaterThan(RUNS / 20);
    expect(new Set(accepted).size).toBe(accepted.length);
    expect([...published].sort()).toEqual([...accepted].sort());
    expect(harness.published.filter((event) => event.account_id === INJECTED.account_id)).toEqual([]);
  }, 30_000);
});
