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

/** Fixture rows written straight to the table: the list is under test here, not the create path. */
async function seedContacts(
  accountId: number,
  rows: Array<{ email: string; subscribed?: boolean; bounced?: boolean }>,
) {
  const { rows: inserted } = await service.pool.query<{ id: number }>(
    `INSERT INTO contacts (account_id, email, subscribed, bounced)
     SELECT $1, email, subscribed, bounced FROM unnest($2::text[], $3::boolean[], $4::boolean[]) AS t(email, subscribed, bounced)
     RETURNING id`,
    [
      accountId,
      rows.map((row) => row.email),
      rows.map((row) => row.subscribed ?? false),
      rows.map((row) => row.bounced ?? false),
    ],
  );
  return inserted.map((row) => row.id);
}

describe('GET /api/v1/contacts pagination', () => {
  let account: number;
  let ids: number[];
  beforeAll(async () => {
    account = newAccountId();
    ids = await seedContacts(
      account,
      Array.from({ length: 230 }, () => ({ email: uniqueEmail() })),
    );
  });

  it('serves 25 per page by default, newest first, with exact meta', async () => {
    const response = await service.api.list(account);
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ current_page: 1, total_pages: 10, total_count: 230, per_page: 25 });
    expect(response.body.data.map((contact) => contact.id)).toEqual(
      [...ids].sort((a, b) => b - a).slice(0, 25),
    );
  });

  it('serves per_page=500 as 100', async () => {
    const response = await service.api.list(account, { per_page: '500' });
    expect(response.body.data).toHaveLength(100);
    expect(response.body.meta).toEqual({ current_page: 1, total_pages: 3, total_count: 230, per_page: 100 });
  });

  it('walks pages that never overlap and together cover every row exactly once', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const response = await service.api.list(account, { page: String(page), per_page: '50' });
      expect(response.body.meta).toEqual({
        current_page: page,
        total_pages: 5,
        total_count: 230,
        per_page: 50,
      });
      expect(response.body.data).toHaveLength(page < 5 ? 50 : 30);
      seen.push(...response.body.data.map((contact) => contact.id));
    }
    expect(new Set(seen).size).toBe(230);
    expect([...seen].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('answers a page past the end with empty data and the true meta', async () => {
    const response = await service.api.list(account, { page: '11' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [],
      meta: { current_page: 11, total_pages: 10, total_count: 230, per_page: 25 },
    });
  });

  it.each([
    ['page=0', { page: '0' }, 'page must be a positive integer'],
    ['page=-1', { page: '-1' }, 'page must be a positive integer'],
    ['page=abc', { page: 'abc' }, 'page must be a positive integer'],
    ['page=1.5', { page: '1.5' }, 'page must be a positive integer'],
    ['per_page=0', { per_page: '0' }, 'per_page must be a positive integer'],
    ['per_page=ten', { per_page: 'ten' }, 'per_page must be a positive integer'],
    ['subscribed=yes', { subscribed: 'yes' }, 'subscribed must be true or false'],
    ['bounced=1', { bounced: '1' }, 'bounced must be true or false'],
  ])('answers 422 { errors } for %s', async (_case, query, message) => {
    const response = await service.api.list(account, query);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ errors: [message] });
  });

  it('an empty account lists nothing with total_pages 0', async () => {
    const response = await service.api.list(newAccountId());
    expect(response.body).toEqual({
      data: [],
      meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 25 },
    });
  });

  it("never lists another account's contacts", async () => {
    const other = newAccountId();
    await seedContacts(other, [{ email: uniqueEmail() }]);
    const response = await service.api.list(other);
    expect(response.body.meta.total_count).toBe(1);
    expect(response.body.data.every((contact) => !ids.includes(contact.id))).toBe(true);
  });
});

describe('GET /api/v1/contacts filters', () => {
  let account: number;
  let byName: Record<string, number>;
  beforeAll(async () => {
    account = newAccountId();
    const rows = [
      { key: 'subOk', email: 'alice@sub.mx.test', subscribed: true, bounced: false },
      { key: 'subBounced', email: 'bob@sub.mx.test', subscribed: true, bounced: true },
      { key: 'unsubOk', email: 'carol@unsub.mx.test', subscribed: false, bounced: false },
      { key: 'unsubBounced', email: 'dave@unsub.mx.test', subscribed: false, bounced: true },
      { key: 'percent', email: 'Fifty%Off@deals.mx.test', subscribed: true, bounced: false },
      { key: 'underscore', email: 'first_last@deals.mx.test', subscribed: false, bounced: false },
      { key: 'plain', email: 'firstXlast@deals.mx.test', subscribed: false, bounced: false },
      { key: 'fiftyPlain', email: 'fiftyXoff@deals.mx.test', subscribed: false, bounced: false },
    ];
    const ids = await seedContacts(account, rows);
    byName = Object.fromEntries(rows.map((row, index) => [row.key, ids[index]!]));
  });

  const listIds = async (query: Record<string, string>) => {
    const response = await service.api.list(account, { per_page: '100', ...query });
    expect(response.status).toBe(200);
    expect(response.body.meta.total_count).toBe(response.body.data.length);
    return response.body.data.map((contact) => contact.id).sort((a, b) => a - b);
  };
  const idsOf = (...keys: string[]) => keys.map((key) => byName[key]!).sort((a, b) => a - b);

  it('filters by subscribed', async () => {
    expect(await listIds({ subscribed: 'true' })).toEqual(idsOf('subOk', 'subBounced', 'percent'));
    expect(await listIds({ subscribed: 'false' })).toEqual(
      idsOf('unsubOk', 'unsubBounced', 'underscore', 'plain', 'fiftyPlain'),
    );
  });

  it('filters by bounced', async () => {
    expect(await listIds({ bounced: 'true' })).toEqual(idsOf('subBounced', 'unsubBounced'));
  });

  it('combines subscribed, bounced and q', async () => {
    expect(await listIds({ subscribed: 'true', bounced: 'false' })).toEqual(idsOf('subOk', 'percent'));
    expect(await listIds({ subscribed: 'false', bounced: 'true', q: 'unsub' })).toEqual(
      idsOf('unsubBounced'),
    );
    expect(await listIds({ subscribed: 'true', q: 'deals' })).toEqual(idsOf('percent'));
  });

  it('matches q as a case-insensitive substring of the email', async () => {
    expect(await listIds({ q: 'ALICE@SUB' })).toEqual(idsOf('subOk'));
    expect(await listIds({ q: 'unsub.mx' })).toEqual(idsOf('unsubOk', 'unsubBounced'));
  });

  it('treats % and _ in q literally', async () => {
    expect(await listIds({ q: '%' })).toEqual(idsOf('percent'));
    expect(await listIds({ q: 'fifty%off' })).toEqual(idsOf('percent'));
    expect(await listIds({ q: 'first_last' })).toEqual(idsOf('underscore'));
    expect(await listIds({ q: '_' })).toEqual(idsOf('underscore'));
    expect(await listIds({ q: '\\' })).toEqual([]);
  });

  it('paginates a filtered list with meta counting only the matches', async () => {
    const response = await service.api.list(account, { q: 'deals', per_page: '3', page: '2' });
    expect(response.body.meta).toEqual({ current_page: 2, total_pages: 2, total_count: 4, per_page: 3 });
    expect(response.body.data).toHaveLength(1);
  });
});
