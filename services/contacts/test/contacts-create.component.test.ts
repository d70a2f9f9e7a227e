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

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /api/v1/contacts', () => {
  it('creates a contact from top-level fields and answers 201 with every Contact field', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const response = await service.api.create(account, {
      email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      subscribed: true,
      source: 'api',
      tags: ['VIP', 'beta'],
      custom_properties: { plan: 'pro', seats: 5, trial: false },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const contact = response.body.data;
    expect(contact).toEqual({
      id: expect.any(Number),
      email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      subscribed: true,
      bounced: false,
      source: 'api',
      tags: ['beta', 'VIP'],
      custom_properties: { plan: 'pro', seats: 5, trial: false },
      created_at: expect.stringMatching(ISO_UTC),
      updated_at: expect.stringMatching(ISO_UTC),
    });
    expect((await service.api.get(account, contact.id)).body.data).toEqual(contact);
  });

  it('accepts the fields nested under "contact"', async () => {
    const email = uniqueEmail();
    const response = await service.api.create(newAccountId(), {
      contact: { email, first_name: 'Grace', tags: ['nested'] },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ email, first_name: 'Grace', tags: ['nested'] });
  });

  it('defaults subscribed and bounced to false and the optional fields to null or empty', async () => {
    const email = uniqueEmail();
    const response = await service.api.create(newAccountId(), { email });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      email,
      first_name: null,
      last_name: null,
      subscribed: false,
      bounced: false,
      source: null,
      tags: [],
      custom_properties: {},
    });
  });

  it('ignores id, bounced, created_at, updated_at and unknown fields (no mass assignment)', async () => {
    const email = uniqueEmail();
    const response = await service.api.create(newAccountId(), {
      email,
      id: 999_999_999,
      bounced: true,
      created_at: '2001-01-01T00:00:00.000Z',
      updated_at: '2001-01-01T00:00:00.000Z',
      account_id: 1,
      is_admin: true,
    });
    expect(response.status).toBe(201);
    const contact = response.body.data;
    expect(contact.id).not.toBe(999_999_999);
    expect(contact.bounced).toBe(false);
    expect(contact.created_at).not.toBe('2001-01-01T00:00:00.000Z');
    expect(Object.keys(contact).sort()).toEqual([
      'bounced',
      'created_at',
      'custom_properties',
      'email',
      'first_name',
      'id',
      'last_name',
      'source',
      'subscribed',
      'tags',
      'updated_at',
    ]);
  });

  it('stores the email as given, and refuses the same address in another case with 422 and no domain_error', async () => {
    const account = newAccountId();
    const email = uniqueEmail('mx.test', 'Mixed.Case');
    expect((await service.api.create(account, { email })).body.data.email).toBe(email);
    const again = await service.api.create(account, { email: email.toUpperCase() });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ errors: ['email has already been taken'] });
  });

  it('lets two accounts hold the same address', async () => {
    const email = uniqueEmail();
    expect((await service.api.create(newAccountId(), { email })).status).toBe(201);
    expect((await service.api.create(newAccountId(), { email })).status).toBe(201);
  });

  it('given 8 concurrent POSTs of one address, answers exactly one 201 and seven 422', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => service.api.create(account, { email })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    for (const refused of responses.filter((response) => response.status === 422)) {
      expect(refused.body).toEqual({ errors: ['email has already been taken'] });
    }
    const listed = await service.api.list(account);
    expect(listed.body.meta.total_count).toBe(1);
  });

  it('finds or creates tags by name case-insensitively, trims them, and lists each once sorted by name', async () => {
    const account = newAccountId();
    const first = await service.api.create(account, {
      email: uniqueEmail(),
      tags: ['  Newsletter ', 'alpha'],
    });
    expect(first.body.data.tags).toEqual(['alpha', 'Newsletter']);
    const second = await service.api.create(account, {
      email: uniqueEmail(),
      tags: ['newsletter', 'NEWSLETTER', 'Zeta'],
    });
    expect(second.status).toBe(201);
    // The tag already existed as "Newsletter": it is found, not created again in another case.
    expect(second.body.data.tags).toEqual(['Newsletter', 'Zeta']);
  });

  it('given concurrent creates that share new tags, creates each tag once', async () => {
    const account = newAccountId();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        service.api.create(account, { email: uniqueEmail(), tags: ['Shared', 'other'] }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const { rows } = await service.pool.query(
      'SELECT count(*)::int AS count FROM tags WHERE account_id = $1',
      [account],
    );
    expect(rows[0].count).toBe(2);
  });

  it('drops custom properties given as null on create', async () => {
    const response = await service.api.create(newAccountId(), {
      email: uniqueEmail(),
      custom_properties: { a: 1, b: null },
    });
    expect(response.body.data.custom_properties).toEqual({ a: 1 });
  });

  it('accepts exactly 50 custom properties and refuses 51 with 422', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`key${index}`, index]));
    expect(
      (await service.api.create(newAccountId(), { email: uniqueEmail(), custom_properties: fifty })).status,
    ).toBe(201);
    const response = await service.api.create(newAccountId(), {
      email: uniqueEmail(),
      custom_properties: { ...fifty, one_more: 1 },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ errors: ['custom_properties must have at most 50 entries'] });
  });

  it.each([
    ['email missing', {}, 'email is required'],
    ['email not a string', { email: 42 }, 'email must be a string'],
    ['email malformed', { email: 'not-an-email' }, 'email is invalid'],
    ['email with two @', { email: 'a@b@mx.test' }, 'email is invalid'],
    [
      'subscribed not a boolean',
      { email: 'x@mx.test', subscribed: 'yes' },
      'subscribed must be true or false',
    ],
    ['first_name not a string', { email: 'x@mx.test', first_name: 7 }, 'first_name must be a string or null'],
    ['tags not an array', { email: 'x@mx.test', tags: 'vip' }, 'tags must be an array of strings'],
    ['a blank tag', { email: 'x@mx.test', tags: ['  '] }, 'tags.0 must not be blank'],
    [
      'a tag over 100 characters',
      { email: 'x@mx.test', tags: ['t'.repeat(101)] },
      'tags.0 is too long (at most 100 characters)',
    ],
    [
      'custom_properties not an object',
      { email: 'x@mx.test', custom_properties: [1] },
      'custom_properties must be an object',
    ],
    [
      'a nested custom property value',
      { email: 'x@mx.test', custom_properties: { a: { b: 1 } } },
      'custom_properties.a values must be strings, numbers, booleans or null',
    ],
  ])('given %s, answers 422 { errors } without domain_error', async (_case, body, message) => {
    const response = await service.api.create(newAccountId(), body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ errors: [message] });
  });

  it('accepts a tag of exactly 100 characters', async () => {
    const name = 'n'.repeat(100);
    const response = await service.api.create(newAccountId(), { email: uniqueEmail(), tags: [name] });
    expect(response.body.data.tags).toEqual([name]);
  });

  it('answers 400 for a body that is not a JSON object, and for malformed JSON', async () => {
    expect((await service.api.create(newAccountId(), [1, 2])).status).toBe(400);
    const malformed = await service.api.create(newAccountId(), '{"email":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.any(String) });
  });

  it('answers 401 without a valid identity signature', async () => {
    const response = await service.api.call(undefined, 'POST', '', { email: uniqueEmail() });
    expect(response.status).toBe(401);
  });
});
