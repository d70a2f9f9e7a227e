import { insertContact, insertEngagement, insertEventDay, segmentsApi } from './support/segment-factories';
import { newAccountId, startContactsForTest, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
let call: ReturnType<typeof segmentsApi>;
beforeAll(async () => {
  service = await startContactsForTest();
  call = segmentsApi(service.url);
});
afterAll(() => service.stop());

type Preview = { data: { count: number; sample: Array<{ id: number; email: string; first_name: string | null; last_name: string | null }> } };
const all = (...conditions: unknown[]) => ({ match: 'all', conditions });

/** The ids a rule selects in the account, through the preview (count) and a members' walk. */
async function members(account: number, rule: unknown): Promise<number[]> {
  const preview = await call<Preview>(account, 'POST', '/preview', { rule });
  expect(preview.status).toBe(200);
  const saved = await call<{ data: { id: number } }>(account, 'POST', '', { name: `s ${Math.random()}`, rule });
  expect(saved.status).toBe(201);
  const page = await call<{ data: { contact_ids: number[]; next_after: number | null } }>(account, 'GET', `/${saved.body.data.id}/members`);
  expect(page.body.data.contact_ids).toHaveLength(preview.body.data.count);
  return page.body.data.contact_ids;
}

describe('segment evaluation', () => {
  it('field: email case-insensitively, contains literally (% and _ are not wildcards), in, neq and exists', async () => {
    const account = newAccountId();
    const ann = await insertContact(service.pool, account, { email: 'Ann.Lee@Example.test', first_name: 'Ann', source: 'api' });
    const percent = await insertContact(service.pool, account, { email: 'x%_y@example.test', source: 'import' });
    const plain = await insertContact(service.pool, account, { email: 'xay@example.test', first_name: '' });
    const other = await insertContact(service.pool, newAccountId(), { email: 'ann.lee@example.test' });
    expect(await members(account, all({ type: 'field', field: 'email', op: 'eq', value: 'ann.lee@EXAMPLE.test' }))).toEqual([ann]);
    expect(await members(account, all({ type: 'field', field: 'email', op: 'contains', value: '%_' }))).toEqual([percent]);
    expect(await members(account, all({ type: 'field', field: 'email', op: 'in', value: ['XAY@example.test', 'nobody@x.test'] }))).toEqual([plain]);
    expect(await members(account, all({ type: 'field', field: 'source', op: 'neq', value: 'api' }))).toEqual([percent, plain]);
    expect(await members(account, all({ type: 'field', field: 'first_name', op: 'exists' }))).toEqual([ann]);
    expect(await members(account, all({ type: 'field', field: 'first_name', op: 'contains', value: 'nn' }))).toEqual([ann]);
    expect(other).toBeGreaterThan(0);
  });

  it('property: typed eq, numeric lt/gt (numbers and numeric strings; other values never match nor fail), contains, in, exists', async () => {
    const account = newAccountId();
    const three = await insertContact(service.pool, account, { custom_properties: { seats: 3, plan: 'pro', company: 'Acme 100%' } });
    const tenText = await insertContact(service.pool, account, { custom_properties: { seats: '10', plan: 'free' } });
    const word = await insertContact(service.pool, account, { custom_properties: { seats: 'many', trial: true } });
    const none = await insertContact(service.pool, account, {});
    expect(await members(account, all({ type: 'property', key: 'seats', op: 'gt', value: 5 }))).toEqual([tenText]);
    expect(await members(account, all({ type: 'property', key: 'seats', op: 'lt', value: 5 }))).toEqual([three]);
    expect(await members(account, all({ type: 'property', key: 'seats', op: 'eq', value: 3 }))).toEqual([three]);
    expect(await members(account, all({ type: 'property', key: 'trial', op: 'eq', value: true }))).toEqual([word]);
    expect(await members(account, all({ type: 'property', key: 'plan', op: 'neq', value: 'pro' }))).toEqual([tenText, word, none]);
    expect(await members(account, all({ type: 'property', key: 'plan', op: 'in', value: ['free', 'pro'] }))).toEqual([three, tenText]);
    expect(await members(account, all({ type: 'property', key: 'company', op: 'contains', value: '100%' }))).toEqual([three]);
    expect(await members(account, all({ type: 'property', key: 'seats', op: 'exists' }))).toEqual([three, tenText, word]);
  });

  it('tag has / has_not (case-insensitively), subscribed, and groups any inside all', async () => {
    const account = newAccountId();
    const vip = await insertContact(service.pool, account, { tags: ['VIP'], subscribed: true });
    const vipOff = await insertContact(service.pool, account, { tags: ['vip', 'beta'], subscribed: false });
    const beta = await insertContact(service.pool, account, { tags: ['beta'] });
    const bare = await insertContact(service.pool, account, {});
    expect(await members(account, all({ type: 'tag', op: 'has', tag: 'vip' }))).toEqual([vip, vipOff]);
    expect(await members(account, all({ type: 'tag', op: 'has_not', tag: 'VIP' }))).toEqual([beta, bare]);
    expect(await members(account, all({ type: 'subscribed', value: false }))).toEqual([vipOff]);
    const rule = all({ type: 'subscribed', value: true }, { match: 'any', conditions: [{ type: 'tag', op: 'has', tag: 'vip' }, { type: 'tag', op: 'has', tag: 'beta' }] });
    expect(await members(account, rule)).toEqual([vip, beta]);
  });

  it('last_engaged within / not within N days (never engaged is not within)', async () => {
    const account = newAccountId();
    const day = 24 * 3600 * 1000;
    const recent = await insertContact(service.pool, account, { last_engaged_at: new Date(Date.now() - 2 * day) });
    const old = await insertContact(service.pool, account, { last_engaged_at: new Date(Date.now() - 40 * day) });
    const never = await insertContact(service.pool, account, {});
    expect(await members(account, all({ type: 'last_engaged', op: 'within_days', days: 30 }))).toEqual([recent]);
    expect(await members(account, all({ type: 'last_engaged', op: 'not_within_days', days: 30 }))).toEqual([old, never]);
  });

  it('event: at least N times in the D days ending today, summed over days, other events and older days not counted', async () => {
    const account = newAccountId();
    const enough = await insertContact(service.pool, account, {});
    const spread = await insertContact(service.pool, account, {});
    const tooOld = await insertContact(service.pool, account, {});
    const otherEvent = await insertContact(service.pool, account, {});
    await insertEventDay(service.pool, account, enough, 'login', 0, 3);
    await insertEventDay(service.pool, account, spread, 'login', 1, 1);
    await insertEventDay(service.pool, account, spread, 'login', 6, 2);
    await insertEventDay(service.pool, account, tooOld, 'login', 7, 5);
    await insertEventDay(service.pool, account, otherEvent, 'logout', 0, 9);
    expect(await members(account, all({ type: 'event', event: 'login', min_count: 3, days: 7 }))).toEqual([enough, spread]);
    expect(await members(account, all({ type: 'event', event: 'login', min_count: 1, days: 1 }))).toEqual([enough]);
  });

  it('campaign opened / clicked / not_opened / not_clicked, and never_opened over every email', async () => {
    const account = newAccountId();
    const clicker = await insertContact(service.pool, account, {});
    const opener = await insertContact(service.pool, account, {});
    const workflowReader = await insertContact(service.pool, account, {});
    const never = await insertContact(service.pool, account, {});
    await insertEngagement(service.pool, account, clicker, 7, true);
    await insertEngagement(service.pool, account, opener, 7, false);
    await insertEngagement(service.pool, account, opener, 8, true);
    await insertEngagement(service.pool, account, workflowReader, null, false);
    expect(await members(account, all({ type: 'campaign', op: 'opened', campaign_id: 7 }))).toEqual([clicker, opener]);
    expect(await members(account, all({ type: 'campaign', op: 'clicked', campaign_id: 7 }))).toEqual([clicker]);
    expect(await members(account, all({ type: 'campaign', op: 'not_opened', campaign_id: 7 }))).toEqual([workflowReader, never]);
    expect(await members(account, all({ type: 'campaign', op: 'not_clicked', campaign_id: 7 }))).toEqual([opener, workflowReader, never]);
    expect(await members(account, all({ type: 'never_opened' }))).toEqual([never]);
  });
});

describe('/internal/v1/segments', () => {
  const rule = all({ type: 'tag', op: 'has', tag: 'vip' });

  it('creates, lists, reads, replaces and deletes a segment of the account only', async () => {
    const account = newAccountId();
    const created = await call<{ data: { id: number; name: string; rule: unknown; created_at: string; updated_at: string } }>(account, 'POST', '', { name: 'VIPs', rule });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(Number), name: 'VIPs', rule, created_at: expect.any(String), updated_at: expect.any(String) });
    const id = created.body.data.id;
    expect((await call(account, 'GET', '')).body).toEqual({ data: [created.body.data] });
    expect((await call(account, 'GET', `/${id}`)).body).toEqual({ data: created.body.data });
    expect((await call(newAccountId(), 'GET', `/${id}`)).status).toBe(404);
    const replaced = await call<{ data: { name: string; rule: unknown } }>(account, 'PUT', `/${id}`, { name: 'Everyone new', rule: all({ type: 'never_opened' }) });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({ name: 'Everyone new', rule: all({ type: 'never_opened' }) });
    expect((await call(account, 'DELETE', `/${id}`)).status).toBe(204);
    expect((await call(account, 'GET', `/${id}`)).status).toBe(404);
    expect((await call(account, 'DELETE', `/${id}`)).status).toBe(404);
  });

  it('answers 422 for a name taken in the account whatever its case, and for an invalid rule with error and details', async () => {
    const account = newAccountId();
    expect((await call(account, 'POST', '', { name: 'Buyers', rule })).status).toBe(201);
    const taken = await call(account, 'POST', '', { name: 'BUYERS', rule });
    expect(taken.status).toBe(422);
    expect(taken.body.error).toBe('name has already been taken');
    expect((await call(newAccountId(), 'POST', '', { name: 'Buyers', rule })).status).toBe(201);
    const invalid = await call(account, 'POST', '/preview', { rule: all({ type: 'event', event: 'login', min_count: 0, days: 7 }) });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({
      errors: ['rule.conditions.0.min_count min_count must be at least 1'],
      error: 'rule.conditions.0.min_count min_count must be at least 1',
      details: [{ path: 'rule.conditions.0.min_count', message: 'min_count must be at least 1' }],
    });
  });

  it('previews a count with at most ten contacts, newest first, and counts a saved segment', async () => {
    const account = newAccountId();
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await insertContact(service.pool, account, { tags: ['vip'], first_name: `N${i}` }));
    await insertContact(service.pool, account, {});
    const preview = await call<Preview>(account, 'POST', '/preview', { rule });
    expect(preview.body.data.count).toBe(12);
    expect(preview.body.data.sample.map((contact) => contact.id)).toEqual(ids.slice(2).reverse());
    expect(Object.keys(preview.body.data.sample[0]!).sort()).toEqual(['email', 'first_name', 'id', 'last_name']);
    const saved = await call<{ data: { id: number } }>(account, 'POST', '', { name: 'vip', rule });
    expect((await call(account, 'GET', `/${saved.body.data.id}/count`)).body).toEqual({ data: { count: 12 } });
  });

  it('pages members by ascending id with next_after until null, limit at most 5000', async () => {
    const account = newAccountId();
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await insertContact(service.pool, account, { tags: ['vip'] }));
    const saved = await call<{ data: { id: number } }>(account, 'POST', '', { name: 'vip', rule });
    type Page = { data: { contact_ids: number[]; next_after: number | null } };
    const first = await call<Page>(account, 'GET', `/${saved.body.data.id}/members?limit=2`);
    expect(first.body.data).toEqual({ contact_ids: ids.slice(0, 2), next_after: ids[1] });
    const second = await call<Page>(account, 'GET', `/${saved.body.data.id}/members?limit=2&after=${ids[1]}`);
    expect(second.body.data).toEqual({ contact_ids: ids.slice(2, 4), next_after: ids[3] });
    const last = await call<Page>(account, 'GET', `/${saved.body.data.id}/members?limit=2&after=${ids[3]}`);
    expect(last.body.data).toEqual({ contact_ids: ids.slice(4), next_after: null });
    expect((await call(account, 'GET', `/${saved.body.data.id}/members?limit=5001`)).status).toBe(422);
    expect((await call(account, 'GET', `/${saved.body.data.id}/members?after=x`)).status).toBe(422);
  });

  it('answers 401 without a signed identity', async () => {
    expect((await fetch(`${service.url}/internal/v1/segments`)).status).toBe(401);
  });
});
