import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor } from '@mailer/testing';
import { newAccountId, startContactsForTest, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
beforeAll(async () => {
  service = await startContactsForTest();
});
afterAll(() => service.stop());

/** A signed request with any body and content type (the API helper always sends JSON). */
async function raw(account: number, method: string, path: string, body: string | Buffer, contentType: string) {
  const url = `${service.url}/api/v1/contacts${path}`;
  const response = await fetch(url, {
    method,
    headers: { [IDENTITY_HEADER]: signedIdentityFor(account, { method, url, body }), 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const count = async (account: number) => (await service.api.list(account)).body.meta.total_count;

describe('statuses for what is not a contact body', () => {
  it('answers 415 for a body that is not JSON, on create and update, and changes nothing', async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail(), first_name: 'Kept' })).body.data;
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      expect(await raw(account, 'POST', '', JSON.stringify({ email: uniqueEmail() }), contentType)).toEqual({
        status: 415,
        body: { error: 'request body must be JSON (Content-Type: application/json)' },
      });
      expect((await raw(account, 'PATCH', `/${contact.id}`, JSON.stringify({ first_name: 'Changed' }), contentType)).status).toBe(415);
    }
    expect(await count(account)).toBe(1);
    expect((await service.api.get(account, contact.id)).body.data.first_name).toBe('Kept');
  });

  it('answers 415 for JSON declared in a charset other than UTF-8 (refused, not decoded), and takes UTF-8 in any case, quoted or not', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    for (const charset of ['utf-16', 'UTF-16LE', 'latin1', '"iso-8859-1"', 'utf8']) {
      const encoding = charset.toLowerCase().includes('16') ? 'utf16le' : 'latin1';
      expect(await raw(account, 'POST', '', Buffer.from(JSON.stringify({ email }), encoding), `application/json; charset=${charset}`)).toEqual({
        status: 415,
        body: { error: 'request body must be JSON in UTF-8' },
      });
    }
    expect(await count(account)).toBe(0);
    for (const charset of ['UTF-8', '"utf-8"', 'utf-8']) {
      expect((await raw(account, 'POST', '', JSON.stringify({ email: uniqueEmail() }), `application/json; charset=${charset}`)).status).toBe(201);
    }
    expect(await count(account)).toBe(3);
  });

  it('answers 413 for a body past 64 KiB and creates nothing', async () => {
    const account = newAccountId();
    const body = JSON.stringify({ email: uniqueEmail(), source: 'x'.repeat(65 * 1024) });
    expect(await raw(account, 'POST', '', body, 'application/json')).toEqual({ status: 413, body: { error: 'request body is too large' } });
    expect(await count(account)).toBe(0);
  });
});

describe('flat and nested contact fields', () => {
  it('answers 422 naming each field given both ways with different values, and creates nothing', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const refused = await service.api.create(account, { email, first_name: 'Flat', subscribed: true, contact: { email, first_name: 'Nested', subscribed: false } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      errors: [
        'first_name is given both flat and under contact, with different values',
        'subscribed is given both flat and under contact, with different values',
      ],
    });
    expect(await count(account)).toBe(0);
  });

  it('takes fields from both forms when they do not disagree', async () => {
    const account = newAccountId();
    const email = uniqueEmail();
    const created = await service.api.create(account, { email, last_name: 'Flat', contact: { email, first_name: 'Nested' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ first_name: 'Nested', last_name: 'Flat' });
    const updated = await service.api.update(account, created.body.data.id, { source: 'call', contact: { tags: ['vip'] } });
    expect(updated.body.data).toMatchObject({ source: 'call', tags: ['vip'] });
    expect((await service.api.update(account, created.body.data.id, { contact: 'x' })).body).toEqual({
      errors: ['contact must be an object of contact fields'],
    });
  });
});

describe('limits', () => {
  it('refuses a custom property value past 2048 characters with 422 naming it', async () => {
    const account = newAccountId();
    const refused = await service.api.create(account, { email: uniqueEmail(), custom_properties: { bio: 'x'.repeat(2049) } });
    expect(refused).toMatchObject({ status: 422, body: { errors: ['custom_properties.bio is too long (at most 2048 characters)'] } });
    expect((await service.api.create(account, { email: uniqueEmail(), custom_properties: { bio: 'x'.repeat(2048) } })).status).toBe(201);
  });

  it('refuses custom properties past 32 KiB in all, also when a PATCH merge would pass it, changing nothing', async () => {
    const account = newAccountId();
    const big = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'x'.repeat(2000)]));
    const refused = await service.api.create(account, { email: uniqueEmail(), custom_properties: big('k', 17) });
    expect(refused).toMatchObject({ status: 422, body: { errors: ['custom_properties must be at most 32768 bytes as JSON'] } });
    const contact = (await service.api.create(account, { email: uniqueEmail(), custom_properties: big('a', 10) })).body.data;
    const merge = await service.api.update(account, contact.id, { custom_properties: big('b', 7) });
    expect(merge.status).toBe(422);
    expect((await service.api.get(account, contact.id)).body.data).toEqual(contact);
  });

  it('holds at most 100 tags per contact: a PATCH past it is a 422 and links nothing', async () => {
    const account = newAccountId();
    const tags = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const contact = (await service.api.create(account, { email: uniqueEmail(), tags: tags('t', 100) })).body.data;
    expect(contact.tags).toHaveLength(100);
    const refused = await service.api.update(account, contact.id, { tags: ['one-more'] });
    expect(refused).toMatchObject({ status: 422, body: { errors: ['tags must be at most 100 per contact'] } });
    expect((await service.api.get(account, contact.id)).body.data.tags).toHaveLength(100);
    expect((await service.api.create(account, { email: uniqueEmail(), tags: ['x'.repeat(101)] })).body.errors).toEqual([
      'tags.0 is too long (at most 100 characters)',
    ]);
  });
});

describe('GET /api/v1/contacts?tag=NAME', () => {
  it('lists only the contacts with that tag, case-insensitively, newest first, with true totals', async () => {
    const account = newAccountId();
    const a = (await service.api.create(account, { email: uniqueEmail(), tags: ['VIP', 'beta'] })).body.data;
    await service.api.create(account, { email: uniqueEmail(), tags: ['beta'] });
    const c = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    await service.api.update(account, c.id, { tags: ['vip'] });
    const other = newAccountId();
    await service.api.create(other, { email: uniqueEmail(), tags: ['vip'] });

    const listed = await service.api.list(account, { tag: 'vip' });
    expect(listed.body.data.map((contact) => contact.id)).toEqual([c.id, a.id]);
    expect(listed.body.meta).toMatchObject({ total_count: 2, total_pages: 1 });
    expect((await service.api.list(account, { tag: 'vip', subscribed: 'true' })).body.data).toEqual([]);
    expect((await service.api.list(account, { tag: 'nobody' })).body.meta.total_count).toBe(0);
    expect((await service.api.list(account, { tag: '  ' })).body).toEqual({ errors: ['tag must not be blank'] });
  });

  it('is served from the (tag, contact) index', async () => {
    const { rows } = await service.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'contact_tags' AND indexname = 'contact_tags_tag_contact_idx'`,
    );
    expect(rows[0]?.indexdef).toMatch(/\(tag_id, contact_id DESC\)/);
  });
});
