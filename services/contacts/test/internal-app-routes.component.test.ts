import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor } from '@mailer/testing';
import { newAccountId, startContactsForTest, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
beforeAll(async () => {
  service = await startContactsForTest();
});
afterAll(() => service.stop());

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: unknown; errors?: string[] };
}

/** The account app's calls: the signed identity of the account, like the gateway's. */
async function internal(accountId: number, method: string, path: string, body?: unknown): Promise<Answer> {
  const url = `${service.url}/internal/v1${path}`;
  const sent = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body: sent }) };
  if (sent) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: sent });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

describe('POST /internal/v1/contacts/import', () => {
  it('creates new addresses, updates known ones, and fails each bad row with the API reasons', async () => {
    const account = newAccountId();
    const known = (await service.api.create(account, { email: uniqueEmail(), first_name: 'Old', tags: ['a'] })).body.data;
    const fresh = uniqueEmail();
    const answer = await internal(account, 'POST', '/contacts/import', {
      rows: [
        { email: fresh, first_name: 'New', tags: ['x', 'y'], custom_properties: { plan: 'pro' } },
        { email: known.email.toUpperCase().replace(/@.*/, (domain) => domain.toLowerCase()), first_name: 'Renamed', tags: ['b'] },
        { email: 'not an address' },
        { email: 'someone@nxdomain.test' },
        { email: uniqueEmail(), tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
      ],
    });
    expect(answer.status).toBe(200);
    const outcomes = answer.body.data as Array<{ outcome: string; id?: number; errors?: string[] }>;
    expect(outcomes.map((row) => row.outcome)).toEqual(['created', 'updated', 'failed', 'failed', 'failed']);
    expect(outcomes[1]!.id).toBe(known.id);
    expect(outcomes[2]!.errors).toEqual(['email is invalid']);
    expect(outcomes[3]!.errors![0]).toMatch(/domain|email/);
    expect(outcomes[4]!.errors!.join(' ')).toMatch(/tags/);
    const updated = (await service.api.get(account, known.id)).body.data;
    expect(updated).toMatchObject({ first_name: 'Renamed', tags: ['a', 'b'] });
    const created = (await service.api.get(account, outcomes[0]!.id!)).body.data;
    expect(created).toMatchObject({ email: fresh, first_name: 'New', tags: ['x', 'y'], custom_properties: { plan: 'pro' } });
    expect((await service.api.list(account)).body.meta.total_count).toBe(2);
  });

  it('checks without writing on a dry run, and says which addresses exist', async () => {
    const account = newAccountId();
    const known = (await service.api.create(account, { email: uniqueEmail() })).body.data;
    const answer = await internal(account, 'POST', '/contacts/import', {
      dry_run: true,
      rows: [{ email: uniqueEmail() }, { email: known.email }, { email: '' }],
    });
    expect(answer.body.data).toEqual([
      { outcome: 'valid', existing: false },
      { outcome: 'valid', existing: true },
      { outcome: 'failed', errors: ['email is invalid'] },
    ]);
    expect((await service.api.list(account)).body.meta.total_count).toBe(1);
  });

  it('refuses a batch that is not a list of rows, or too long, with 422 and changes nothing', async () => {
    const account = newAccountId();
    for (const body of [{}, { rows: 'x' }, { rows: [] }, { rows: Array.from({ length: 501 }, () => ({ email: uniqueEmail() })) }]) {
      expect((await internal(account, 'POST', '/contacts/import', body)).status).toBe(422);
    }
    expect((await service.api.list(account)).body.meta.total_count).toBe(0);
  });
});

describe('DELETE /internal/v1/contacts/:id/tags/:tag', () => {
  it('takes one tag off (any case), keeps the others, and is a 404 for another account', async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail(), tags: ['Keep', 'Drop'] })).body.data;
    expect((await internal(newAccountId(), 'DELETE', `/contacts/${contact.id}/tags/drop`)).status).toBe(404);
    const answer = await internal(account, 'DELETE', `/contacts/${contact.id}/tags/drop`);
    expect(answer.status).toBe(200);
    expect((answer.body.data as { tags: string[] }).tags).toEqual(['Keep']);
    expect((await service.api.get(account, contact.id)).body.data.tags).toEqual(['Keep']);
    expect((await service.api.list(account, { tag: 'Drop' })).body.meta.total_count).toBe(0);
  });
});

describe('GET /internal/v1/contacts/export and /figures', () => {
  it('slices the filtered list newest first by keyset, and counts total, subscribed and new', async () => {
    const account = newAccountId();
    const made = [];
    for (let i = 0; i < 5; i += 1) {
      const fields = { email: uniqueEmail(), subscribed: i % 2 === 0, tags: i < 3 ? ['vip'] : [], custom_properties: { [`p${i}`]: i } };
      made.push((await service.api.create(account, fields)).body.data);
    }
    const first = await internal(account, 'GET', '/contacts/export?tag=vip&limit=2');
    const firstRows = first.body.data as Array<{ id: number }>;
    expect(firstRows.map((row) => row.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first.body.property_keys).toEqual(['p0', 'p1', 'p2']);
    const second = await internal(account, 'GET', `/contacts/export?tag=vip&limit=2&before=${String(first.body.next_before)}`);
    expect((second.body.data as Array<{ id: number }>).map((row) => row.id)).toEqual([made[0]!.id]);
    expect(second.body.next_before).toBeNull();
    expect(second.body.property_keys).toBeUndefined();
    expect((await internal(account, 'GET', '/contacts/export?before=abc')).status).toBe(422);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await internal(account, 'GET', `/contacts/figures?since=${since}`)).body.data).toEqual({ total: 5, subscribed: 3, created_since: 5 });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await internal(account, 'GET', `/contacts/figures?since=${future}`)).body.data).toEqual({ total: 5, subscribed: 3, created_since: 0 });
    expect((await internal(account, 'GET', '/contacts/figures?since=yesterday')).status).toBe(422);
  });
});
