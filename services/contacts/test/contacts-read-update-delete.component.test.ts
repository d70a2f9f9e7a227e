import { AppError, CommonErrorCodes, type Pool } from '@mailer/shared';
import { countingPool } from '@mailer/testing';
import { getContact } from '../src/domain/read-contacts';
import {
  newAccountId,
  startContactsForTest,
  uniqueEmail,
  type ContactsTestService,
} from './support/contacts-test-service';

let service: ContactsTestService;
beforeAll(async () => {
  service = await startContactsForTest();
});
afterAll(() => service.stop());

async function createContact(account: number, fields: Record<string, unknown> = {}) {
  const response = await service.api.create(account, { email: uniqueEmail(), ...fields });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('GET /api/v1/contacts/:id', () => {
  it('answers { data: Contact } with every tag the contact belongs to', async () => {
    const account = newAccountId();
    const contact = await createContact(account, { tags: ['b', 'a'] });
    const response = await service.api.get(account, contact.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { ...contact, tags: ['a', 'b'] } });
  });

  it('answers 404 { error } for an unknown id, a non-numeric id, and a contact of another account', async () => {
    const contact = await createContact(newAccountId());
    for (const [account, id] of [
      [newAccountId(), contact.id],
      [newAccountId(), 987_654_321],
      [newAccountId(), 'abc'],
    ] as const) {
      const response = await service.api.get(account, id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
  });
});

type Query = (...args: unknown[]) => Promise<unknown>;

/** The pool, its statements run at once but their answers held until `release`: a statement stays in flight. */
function answersHeld(pool: Pool): { pool: Pool; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = new Proxy(pool, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = (value as Query).bind(target);
      if (key !== 'query') return method;
      return async (...args: unknown[]) => {
        const result = await method(...args);
        await gate;
        return result;
      };
    },
  });
  return { pool: held, release };
}

describe('single-contact reads asked together', () => {
  it('share a statement, and each gets its own answer: its contact, or 404 for another account or no such id', async () => {
    const [first, second] = [newAccountId(), newAccountId()];
    const tagged = await createContact(first, { tags: ['b', 'a'] });
    const other = await createContact(second);
    const counting = countingPool(service.pool);
    const asked: Array<[number, number]> = [
      [first, tagged.id],
      [second, other.id],
      [second, tagged.id], // another account's contact
      [first, 987_654_321],
      [first, tagged.id], // the same read twice in one statement
    ];
    const answers = await Promise.all(
      asked.map(([account, id]) => getContact(counting.pool, account, id).catch((error: unknown) => error)),
    );
    // Asked in one turn of the event loop: all five go in one statement.
    expect(counting.statements()).toBe(1);
    expect(answers[0]).toMatchObject({ id: tagged.id, account_id: first, tags: ['a', 'b'] });
    expect(answers[1]).toMatchObject({ id: other.id, account_id: second, tags: [] });
    for (const missing of [answers[2], answers[3]]) {
      expect(missing).toBeInstanceOf(AppError);
      expect(missing).toMatchObject({ code: CommonErrorCodes.NOT_FOUND });
    }
    expect(answers[4]).toEqual(answers[0]);
  });

  it('never take the answer of a statement sent before they were asked: a write committed meanwhile is seen', async () => {
    const account = newAccountId();
    const contact = await createContact(account, { first_name: 'Before' });
    const held = answersHeld(service.pool);
    const before = getContact(held.pool, account, contact.id);
    const renamed = await service.api.update(account, contact.id, { first_name: 'After' });
    expect(renamed.status).toBe(200);
    const after = getContact(held.pool, account, contact.id);
    held.release();
    expect((await before).first_name).toBe('Before');
    expect((await after).first_name).toBe('After');
  });
});

describe('PATCH /api/v1/contacts/:id', () => {
  it('changes only the given fields, flat or nested, and advances updated_at', async () => {
    const account = newAccountId();
    const contact = await createContact(account, {
      first_name: 'Ann',
      last_name: 'Lee',
      source: 'api',
      subscribed: false,
    });
    const flat = await service.api.update(account, contact.id, { first_name: 'Anna' });
    expect(flat.status).toBe(200);
    expect(flat.body.data).toEqual({ ...contact, first_name: 'Anna', updated_at: expect.any(String) });
    expect(Date.parse(flat.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(contact.updated_at));
    const nested = await service.api.update(account, contact.id, {
      contact: { subscribed: true, source: 'call' },
    });
    expect(nested.body.data).toMatchObject({
      first_name: 'Anna',
      last_name: 'Lee',
      subscribed: true,
      source: 'call',
    });
    expect((await service.api.get(account, contact.id)).body.data).toEqual(nested.body.data);
  });

  it('clears a name given as null', async () => {
    const account = newAccountId();
    const contact = await createContact(account, { first_name: 'Ann' });
    expect(
      (await service.api.update(account, contact.id, { first_name: null })).body.data.first_name,
    ).toBeNull();
  });

  it('adds tags and never removes them; answers them sorted by name', async () => {
    const account = newAccountId();
    const contact = await createContact(account, { tags: ['beta', 'Zed'] });
    const response = await service.api.update(account, contact.id, { tags: ['alpha', 'BETA'] });
    expect(response.body.data.tags).toEqual(['alpha', 'beta', 'Zed']);
    expect((await service.api.update(account, contact.id, { tags: [] })).body.data.tags).toEqual([
      'alpha',
      'beta',
      'Zed',
    ]);
  });

  it('merges custom_properties key by key and removes a key set to null', async () => {
    const account = newAccountId();
    const contact = await createContact(account, {
      custom_properties: { plan: 'free', seats: 1, beta: true },
    });
    const response = await service.api.update(account, contact.id, {
      custom_properties: { plan: 'pro', beta: null, region: 'eu' },
    });
    expect(response.body.data.custom_properties).toEqual({ plan: 'pro', seats: 1, region: 'eu' });
  });

  it('refuses a merge that would hold more than 50 custom properties with 422, changing nothing', async () => {
    const account = newAccountId();
    const forty = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`k${index}`, index]));
    const contact = await createContact(account, { custom_properties: forty });
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`n${index}`, index]));
    const refused = await service.api.update(account, contact.id, {
      custom_properties: eleven,
      first_name: 'X',
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ errors: ['custom_properties must have at most 50 entries'] });
    expect((await service.api.get(account, contact.id)).body.data).toEqual(contact);
    // Removing one while adding eleven lands on exactly 50: allowed.
    const exactly = await service.api.update(account, contact.id, {
      custom_properties: { ...eleven, k0: null },
    });
    expect(exactly.status).toBe(200);
    expect(Object.keys(exactly.body.data.custom_properties)).toHaveLength(50);
  });

  it('ignores id, bounced, created_at, updated_at and unknown fields', async () => {
    const account = newAccountId();
    const contact = await createContact(account);
    const response = await service.api.update(account, contact.id, {
      id: 1,
      bounced: true,
      created_at: '2001-01-01T00:00:00.000Z',
      updated_at: '2001-01-01T00:00:00.000Z',
      favourite_colour: 'blue',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(contact);
  });

  it.each([
    ['subscribed not a boolean', { subscribed: 'no' }, 'subscribed must be true or false'],
    ['email null', { email: null }, 'email must be a string'],
    ['custom_properties null', { custom_properties: null }, 'custom_properties must be an object'],
    ['a tag over 100 characters', { tags: ['x'.repeat(101)] }, 'tags.0 is too long (at most 100 characters)'],
  ])('answers 422 { errors } for %s', async (_case, body, message) => {
    const account = newAccountId();
    const contact = await createContact(account);
    const response = await service.api.update(account, contact.id, body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ errors: [message] });
  });

  it('answers 404 for a contact of another account, even with an invalid body, and changes nothing', async () => {
    const owner = newAccountId();
    const contact = await createContact(owner);
    const response = await service.api.update(newAccountId(), contact.id, { first_name: 'Intruder' });
    expect(response.status).toBe(404);
    expect((await service.api.update(newAccountId(), contact.id, { subscribed: 'no' })).status).toBe(404);
    expect((await service.api.get(owner, contact.id)).body.data.first_name).toBeNull();
  });
});

describe('DELETE /api/v1/contacts/:id', () => {
  it('answers 204 with an empty body, and the contact is gone', async () => {
    const account = newAccountId();
    const contact = await createContact(account, { tags: ['gone'] });
    const response = await service.api.remove(account, contact.id);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await service.api.get(account, contact.id)).status).toBe(404);
    expect((await service.api.remove(account, contact.id)).status).toBe(404);
    // The address is free again.
    expect((await service.api.create(account, { email: contact.email })).status).toBe(201);
  });

  it('answers 404 for a contact of another account and keeps it', async () => {
    const owner = newAccountId();
    const contact = await createContact(owner);
    expect((await service.api.remove(newAccountId(), contact.id)).status).toBe(404);
    expect((await service.api.get(owner, contact.id)).status).toBe(200);
  });
});

describe('routes', () => {
  it('answers 405 for a method a route does not serve, and 404 JSON for an unknown route', async () => {
    const account = newAccountId();
    const put = await service.api.call(account, 'PUT', '/1', {});
    expect(put.status).toBe(405);
    const unknown = await service.api.call(account, 'GET', '/1/unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
