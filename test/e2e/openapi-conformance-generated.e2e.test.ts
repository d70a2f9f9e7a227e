import fc from 'fast-check';
import { requestGenerator, type InputSchema } from './openapi-generator';
import { responseChecker, type Document } from './openapi-tools';
import { startProduct, type Product } from './stack-harness';

/** Generated cases per kind; `CONFORMANCE_RUNS` raises it for a longer run. */
const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 20);
const SEED = Number(process.env.CONFORMANCE_SEED ?? Date.now() % 2 ** 31);

interface Answer {
  status: number;
  body: unknown;
}

interface Parameter {
  name: string;
  in: string;
  schema: InputSchema;
}

/**
 * Requests generated from the served OpenAPI document, not written by hand: values valid by the
 * document must be accepted, values breaking one documented rule must be refused with the
 * documented 4xx and change nothing, and every answer must match the document. Includes
 * create -> read -> update -> list -> delete sequences with generated bodies.
 */
describe('requests generated from the served OpenAPI document', () => {
  let product: Product;
  let document: Document;
  let check: ReturnType<typeof responseChecker>;
  let generate: ReturnType<typeof requestGenerator>;
  const problems: string[] = [];

  beforeAll(async () => {
    // Limits of its own (its own Redis keys): its volume must not spend other files' per-IP window.
    product = await startProduct({ gatewayEnv: { RATE_LIMIT_IP_PER_MIN: '1000000', RATE_LIMIT_KEY_PER_MIN: '1000000', REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? ''}generated-${Date.now()}:` } });
    document = (await (await fetch(`${product.gateway.url}/api/v1/openapi.json`)).json()) as Document;
    check = responseChecker(document);
    generate = requestGenerator(document);
    process.stdout.write(`openapi generated conformance: seed ${SEED}, ${RUNS} runs per case (CONFORMANCE_SEED to replay)\n`);
  }, 60_000);
  afterAll(() => product?.stop());

  const sample = <T>(arbitrary: fc.Arbitrary<T>, runs = RUNS): T[] => fc.sample(arbitrary, { seed: SEED, numRuns: runs });
  const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const operation = (path: string, method: string) =>
    (document.paths[path] as Record<string, { parameters?: Parameter[] }>)[method]!;

  async function call(operationId: string, method: string, url: string, key: string, body?: unknown): Promise<Answer> {
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer = { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    problems.push(...check(operationId, answer.status, answer.body, response.headers).map((problem) => `${problem} for ${JSON.stringify(body)}`));
    return answer;
  }
  const rest = (path: string) => `${product.gateway.url}/api/v1${path}`;
  const totalContacts = async (key: string) =>
    ((await call('listContacts', 'GET', rest('/contacts'), key)).body as { meta: { total_count: number } }).meta.total_count;

  it('contacts: generated valid bodies go through create -> get -> update -> list -> delete', async () => {
    const { key } = await product.anAccountWithKey();
    const creates = sample(fc.tuple(generate.valid(schema('NewContact')), fc.boolean()));
    const changes = sample(generate.valid(schema('ContactChanges')));
    const listParameters = operation('/contacts', 'get').parameters ?? [];
    const queries = sample(
      fc.record(Object.fromEntries(listParameters.map((parameter) => [parameter.name, generate.valid(parameter.schema)])), { requiredKeys: [] }),
    );
    for (const [index, [body, nested]] of creates.entries()) {
      const created = await call('createContact', 'POST', rest('/contacts'), key, nested ? { contact: body } : body);
      expect([JSON.stringify(body), created.status]).toEqual([JSON.stringify(body), 201]);
      const { id } = (created.body as { data: { id: number } }).data;
      const read = await call('getContact', 'GET', rest(`/contacts/${id}`), key);
      expect(read).toEqual({ status: 200, body: created.body });
      const updated = await call('updateContact', 'PATCH', rest(`/contacts/${id}`), key, changes[index]);
      expect([JSON.stringify(changes[index]), updated.status]).toEqual([JSON.stringify(changes[index]), 200]);
      const query = new URLSearchParams(Object.entries(queries[index] ?? {}).map(([name, value]): [string, string] => [name, String(value)]));
      expect((await call('listContacts', 'GET', rest(`/contacts?${query.toString()}`), key)).status).toBe(200);
      expect((await call('deleteContact', 'DELETE', rest(`/contacts/${id}`), key)).status).toBe(204);
      expect((await call('getContact', 'GET', rest(`/contacts/${id}`), key)).status).toBe(404);
    }
  }, 120_000);

  it('contacts: a body breaking one documented rule is a 422 and creates or changes nothing', async () => {
    const { key } = await product.anAccountWithKey();
    const [base] = sample(generate.valid(schema('NewContact')), 1) as Record<string, unknown>[];
    const kept = await call('createContact', 'POST', rest('/contacts'), key, { ...base, email: `kept.${Date.now()}@example.test` });
    const { id } = (kept.body as { data: { id: number } }).data;
    const before = await totalContacts(key);
    for (const violation of generate.violations(schema('NewContact'), base!)) {
      const answer = await call('createContact', 'POST', rest('/contacts'), key, violation.value);
      expect([violation.rule, answer.status]).toEqual([violation.rule, 422]);
    }
    for (const violation of generate.violations(schema('ContactChanges'), {})) {
      const answer = await call('updateContact', 'PATCH', rest(`/contacts/${id}`), key, violation.value);
      expect([violation.rule, answer.status]).toEqual([violation.rule, 422]);
    }
    expect(await totalContacts(key)).toBe(before);
    expect((await call('getContact', 'GET', rest(`/contacts/${id}`), key)).body).toEqual(kept.body);
  }, 120_000);

  it('list parameters: a value breaking its documented schema is a 422', async () => {
    const { key } = await product.anAccountWithKey();
    for (const { path, id } of [
      { path: '/contacts', id: 'listContacts' },
      { path: '/campaigns', id: 'listCampaigns' },
    ]) {
      for (const parameter of operation(path, 'get').parameters ?? []) {
        for (const value of generate.parameterViolations(parameter.schema)) {
          const answer = await call(id, 'GET', rest(`${path}?${new URLSearchParams({ [parameter.name]: value }).toString()}`), key);
          expect([parameter.name, value, answer.status]).toEqual([parameter.name, value, 422]);
        }
      }
      const valid = sample(
        fc.record(
          Object.fromEntries((operation(path, 'get').parameters ?? []).map((parameter) => [parameter.name, generate.valid(parameter.schema)])),
          { requiredKeys: [] },
        ),
      );
      for (const query of valid) {
        const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
        expect([search.toString(), (await call(id, 'GET', rest(`${path}?${search.toString()}`), key)).status]).toEqual([search.toString(), 200]);
      }
    }
  }, 120_000);

  it('events: generated valid events are accepted (202); one broken rule is a 422', async () => {
    const { key } = await product.anAccountWithKey();
    const url = `${product.gateway.eventsUrl}/v1/events`;
    for (const event of sample(generate.valid(schema('ProductEvent')))) {
      const answer = await call('sendEvent', 'POST', url, key, event);
      expect([JSON.stringify(event), answer.status]).toEqual([JSON.stringify(event), 202]);
    }
    const [base] = sample(generate.valid(schema('ProductEvent')), 1) as Record<string, unknown>[];
    for (const violation of generate.violations(schema('ProductEvent'), base!)) {
      const answer = await call('sendEvent', 'POST', url, key, violation.value);
      expect([violation.rule, answer.status]).toEqual([violation.rule, 422]);
    }
  }, 120_000);

  afterAll(() => {
    // Runs before the product stops (afterAll hooks run in reverse order of declaration).
    expect(problems).toEqual([]);
  });
});
