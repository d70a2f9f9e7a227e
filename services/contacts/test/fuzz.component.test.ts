import fc from 'fast-check';
import { z } from 'zod';
import { answerProblem, hostileBodies, prototypeNames, rawRequest, schemaArbitrary, wrongValue, type JsonSchema, type RawResponse } from '@mailer/testing';
import { contactChangesSchema, newContactSchema } from '../src/entry-points/api/contact.schemas';
import { newAccountId, startContactsForTest, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const BODY_LIMIT = 1024 * 1024;
const FOREIGN_ACCOUNT = 2 ** 31 + 7; // never a test account: a body naming it must not move anything there
const INJECTED = { id: 987_654_321_098, bounced: true, created_at: '2000-01-01T00:00:00.000Z', updated_at: '2000-01-01T00:00:00.000Z', account: FOREIGN_ACCOUNT, account_id: FOREIGN_ACCOUNT };

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Addresses that pass or fail domain validation quickly (no slow.test: fuzzing is not about DNS timeouts). */
const email = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}$/), fc.constantFrom('fz.mx.test', 'fy.mx.test', 'a-only.test')).map(([local, domain]) => `${local}@${domain}`) },
  { weight: 2, arbitrary: fc.constantFrom('x@missing.test', 'x@mailinator.com', 'not-an-email', 'a@b', '@mx.test', 'a@@mx.test', 'ü@mx.test', 'a\u0000@mx.test') },
);

/** Valid bodies from the schema, then the ways clients get them wrong: nesting, wrong types, protected fields. */
function bodies(schema: JsonSchema) {
  const valid = schemaArbitrary(schema, { email }) as fc.Arbitrary<Record<string, unknown>>;
  const keys = Object.keys(schema.properties ?? {});
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 2, arbitrary: valid.map((body) => ({ contact: body })) },
    { weight: 2, arbitrary: valid.map((body) => ({ ...body, ...INJECTED })) },
    { weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(...keys), wrongValue()).map(([body, key, value]) => ({ ...body, [key]: value })) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...keys, 'contact', '__proto__', 'constructor'), wrongValue(), { maxKeys: 4 }) },
    { weight: 1, arbitrary: wrongValue() },
  );
}

const idText = (known: number[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known.map(String)) },
    { weight: 3, arbitrary: fc.integer({ min: -5, max: 2 ** 31 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('0', '-1', '1e3', '0x10', '%201', '1.0', '9007199254740993', '99999999999999999999', '%00', '..', 'null', '__proto__') },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
  );

describe('contacts API under generated and hostile input', () => {
  let service: ContactsTestService;
  const owner = newAccountId();
  const stranger = newAccountId();
  const deleter = newAccountId(); // deletes generated ids: only its own contacts may go
  let victim: { id: number; created_at: string };
  let strangersContact: number;
  let deletersContacts: number[];
  const prototypeBefore = prototypeNames();
  const statuses: Record<string, Record<number, number>> = {};

  const call = async (label: string, request: Parameters<typeof rawRequest>[2], allowed: number[], account = owner) => {
    const response = await rawRequest(service.url, account, request);
    const problem = answerProblem(response, allowed);
    if (problem) throw new Error(`${label} ${request.method} ${request.path}: ${problem}`);
    const ok = response as RawResponse;
    statuses[label] = { ...statuses[label], [ok.status]: (statuses[label]?.[ok.status] ?? 0) + 1 };
    return ok;
  };
  const sendJson = (label: string, method: string, path: string, body: unknown, allowed: number[]) =>
    call(label, { method, path, body: Buffer.from(JSON.stringify(body) ?? 'null') }, allowed);

  beforeAll(async () => {
    service = await startContactsForTest();
    victim = (await service.api.create(owner, { email: uniqueEmail(), first_name: 'Victim' })).body.data;
    strangersContact = (await service.api.create(stranger, { email: uniqueEmail() })).body.data.id;
    deletersContacts = [];
    for (let i = 0; i < 3; i += 1) deletersContacts.push((await service.api.create(deleter, { email: uniqueEmail() })).body.data.id);
  });
  afterAll(async () => {
    await service?.stop();
    process.stdout.write(`contacts fuzz statuses: ${JSON.stringify(statuses)}\n`);
  });

  it(`POST /contacts: ${RUNS} generated bodies, never a 5xx, protected fields never written`, async () => {
    await fc.assert(
      fc.asyncProperty(bodies(jsonSchema(newContactSchema)), async (body) => {
        const response = await sendJson('create', 'POST', '/api/v1/contacts', body, [201, 400, 422]);
        if (response.status !== 201) return;
        const data = (response.json as { data: Record<string, unknown> }).data;
        expect(data.id).not.toBe(INJECTED.id);
        expect(data.bounced).toBe(false);
        expect(data.created_at).not.toBe(INJECTED.created_at);
        expect(data.updated_at).not.toBe(INJECTED.updated_at);
        expect(Object.keys(data).sort()).toEqual(Object.keys(victimShape).sort());
      }),
      { numRuns: RUNS },
    );
    expect(statuses.create?.[201]).toBeGreaterThan(RUNS / 20);
    expect(statuses.create?.[422]).toBeGreaterThan(RUNS / 20);
  }, 120_000);

  it(`PATCH /contacts/:id: ${RUNS} generated changes, never a 5xx, id/bounced/created_at/account never changed`, async () => {
    await fc.assert(
      fc.asyncProperty(bodies(jsonSchema(contactChangesSchema)), fc.boolean(), async (body, foreign) => {
        const id = foreign ? strangersContact : victim.id;
        const response = await sendJson('update', 'PATCH', `/api/v1/contacts/${id}`, body, foreign ? [404] : [200, 400, 422]);
        if (response.status !== 200) return;
        const data = (response.json as { data: Record<string, unknown> }).data;
        expect([data.id, data.bounced, data.created_at]).toEqual([victim.id, false, victim.created_at]);
        expect(data.updated_at).not.toBe(INJECTED.updated_at);
      }),
      { numRuns: RUNS },
    );
    expect(statuses.update?.[200]).toBeGreaterThan(RUNS / 20);
    const stillMine = await service.pool.query<{ account_id: number }>('SELECT account_id FROM contacts WHERE id = $1', [victim.id]);
    expect(stillMine.rows).toEqual([{ account_id: owner }]);
  }, 120_000);

  it(`GET /contacts: ${RUNS} generated query strings, never a 5xx, never another account's rows`, async () => {
    const value = fc.oneof(
      fc.constantFrom('true', 'false', '1', '25', '100', '101', '0', '-1', '1.5', '1e2', '', '%', '_', '\\', '9007199254740993'),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('a\u0000b', '\ud800', 'x'.repeat(321)),
    );
    const query = fc.array(fc.tuple(fc.constantFrom('q', 'subscribed', 'bounced', 'page', 'per_page', 'other', '__proto__'), value), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const search = new URLSearchParams(pairs).toString();
        const response = await call('list', { method: 'GET', path: `/api/v1/contacts?${search}` }, [200, 422]);
        if (response.status !== 200) return;
        const { data, meta } = response.json as { data: Array<{ id: number }>; meta: { per_page: number } };
        expect(meta.per_page).toBeLessThanOrEqual(100);
        expect(data.length).toBeLessThanOrEqual(meta.per_page);
        expect(data.map((contact) => contact.id)).not.toContain(strangersContact);
      }),
      { numRuns: RUNS },
    );
    expect(statuses.list?.[200]).toBeGreaterThan(RUNS / 20);
  }, 120_000);

  it(`GET and DELETE /contacts/:id: ${RUNS} generated ids each, only own contacts found, another account's never deleted`, async () => {
    await fc.assert(
      fc.asyncProperty(idText([victim.id, strangersContact]), async (id) => {
        const response = await call('get', { method: 'GET', path: `/api/v1/contacts/${id}` }, [200, 404]);
        if (response.status !== 200) return;
        const found = (response.json as { data: { id: number } }).data.id;
        expect(found).toBe(Number(id));
        expect(found).not.toBe(strangersContact);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(idText([strangersContact, victim.id, ...deletersContacts]), async (id) => {
        await call('delete', { method: 'DELETE', path: `/api/v1/contacts/${id}` }, [204, 404], deleter);
      }),
      { numRuns: RUNS },
    );
    expect((await service.api.get(stranger, strangersContact)).status).toBe(200);
    expect((await service.api.get(owner, victim.id)).status).toBe(200);
    expect(statuses.get?.[200]).toBeGreaterThan(0);
    expect(statuses.delete?.[204]).toBe(deletersContacts.length); // each of its own, once
  }, 120_000);

  it('any other method on the contact routes is a 405 JSON with Allow', async () => {
    for (const method of ['PUT', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECTX']) {
      for (const path of ['/api/v1/contacts', `/api/v1/contacts/${victim.id}`]) {
        const response = await rawRequest(service.url, owner, { method, path });
        if (method === 'CONNECTX') expect(answerProblem(response, [400])).toBeUndefined();
        else expect(answerProblem(response, [405])).toBeUndefined();
      }
    }
  });

  it('raw-body attacks on POST and PATCH: every one a 4xx JSON (413 when oversize), no pollution', async () => {
    const valid = { email: uniqueEmail(), first_name: 'Raw', tags: ['a'], custom_properties: { plan: 'pro' } };
    for (const attack of hostileBodies(valid, BODY_LIMIT)) {
      for (const [method, path] of [['POST', '/api/v1/contacts'], ['PATCH', `/api/v1/contacts/${victim.id}`]] as const) {
        const response = await call('raw', { method, path, body: attack.body, contentType: attack.contentType }, [200, 201, 400, 413, 415, 422]);
        if (attack.name.startsWith('oversize')) expect([attack.name, response.status]).toEqual([attack.name, 413]);
        if (response.status < 300) {
          const data = (response.json as { data: Record<string, unknown> }).data;
          expect(data.bounced).toBe(false);
        }
      }
    }
    expect(prototypeNames()).toBe(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 60_000);

  it('a 64 KiB header is refused with a 4xx JSON, and the service keeps serving', async () => {
    const response = await rawRequest(service.url, owner, { method: 'GET', path: '/api/v1/contacts', headers: { 'x-padding': 'a'.repeat(64 * 1024) } });
    expect(answerProblem(response, [431])).toBeUndefined();
    expect((await service.api.get(owner, victim.id)).status).toBe(200);
  });

  it('after all of it: no prototype pollution, nothing written to a foreign account, the process healthy', async () => {
    expect(prototypeNames()).toBe(prototypeBefore);
    const foreign = await service.pool.query('SELECT count(*)::int AS n FROM contacts WHERE account_id = $1', [FOREIGN_ACCOUNT]);
    expect(foreign.rows[0]).toEqual({ n: 0 });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  });
});

const victimShape = {
  id: 0, email: '', first_name: '', last_name: '', subscribed: false, bounced: false, source: '', tags: [],
  custom_properties: {}, created_at: '', updated_at: '',
};
