import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';
import { createCampaign, createCampaigns, uniqueAccountId } from './factories/campaigns';

interface ListBody {
  data: Array<Record<string, unknown> & { id: number; name: string; status: string }>;
  meta: { current_page: number; total_pages: number; total_count: number; per_page: number };
}

const SPEC_FIELDS = [
  'id', 'name', 'title', 'status', 'preview_text', 'emails_sent', 'emails_failed', 'total_recipients',
  'unsubscribes_count', 'send_at', 'sent_at', 'created_at', 'updated_at',
].sort();
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let harness: CampaignsHarness;
beforeAll(async () => {
  harness = await startCampaignsHarness();
});
afterAll(() => harness.stop());

async function list(accountId: number, query = '') {
  const response = await harness.request(accountId, `/api/v1/campaigns${query}`);
  return { status: response.status, body: (await response.json()) as ListBody & { errors?: string[] } };
}

const names = (body: ListBody) => body.data.map((campaign) => campaign.name);

describe('GET /api/v1/campaigns envelope and shape', () => {
  it('answers the pagination envelope with exactly the spec fields, ISO 8601 UTC timestamps, and nulls for unset send_at/sent_at', async () => {
    const account = uniqueAccountId();
    await createCampaigns(harness.pool, account, [
      { name: 'Draft', status: 'draft', subject: 'secret subject' },
      {
        name: 'Scheduled',
        status: 'scheduled',
        title: 'Hello',
        preview_text: 'Peek',
        send_at: new Date('2026-12-01T09:30:00+02:00'),
        total_recipients: 40,
      },
      {
        name: 'Sent',
        status: 'sent',
        sent_at: new Date('2026-03-01T10:00:00Z'),
        emails_sent: 38,
        emails_failed: 2,
        total_recipients: 40,
        unsubscribes_count: 1,
        created_at: new Date('2026-02-01T00:00:00-05:00'),
      },
    ]);
    const response = await harness.request(account, '/api/v1/campaigns');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as ListBody;
    expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
    expect(body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 3, per_page: 25 });
    for (const campaign of body.data) {
      expect(Object.keys(campaign).sort()).toEqual(SPEC_FIELDS);
      expect(campaign.created_at).toMatch(ISO_UTC);
      expect(campaign.updated_at).toMatch(ISO_UTC);
    }
    const [sent, scheduled, draft] = body.data;
    expect(draft).toMatchObject({ name: 'Draft', status: 'draft', title: '', preview_text: '', send_at: null, sent_at: null });
    expect(scheduled).toMatchObject({
      name: 'Scheduled',
      title: 'Hello',
      preview_text: 'Peek',
      send_at: '2026-12-01T07:30:00.000Z',
      sent_at: null,
      total_recipients: 40,
    });
    expect(sent).toMatchObject({
      name: 'Sent',
      send_at: null,
      sent_at: '2026-03-01T10:00:00.000Z',
      emails_sent: 38,
      emails_failed: 2,
      unsubscribes_count: 1,
      created_at: '2026-02-01T05:00:00.000Z',
    });
  });

  it('lists newest first (id descending) and only the calling account’s campaigns', async () => {
    const account = uniqueAccountId();
    const other = uniqueAccountId();
    const ids = await createCampaigns(harness.pool, account, [{ name: 'first' }, { name: 'second' }, { name: 'third' }]);
    await createCampaign(harness.pool, other, { name: 'not mine' });
    const { body } = await list(account);
    expect(body.data.map((campaign) => campaign.id)).toEqual([...ids].reverse());
    expect(names(body)).toEqual(['third', 'second', 'first']);
  });

  it('answers an empty page with true meta for an account without campaigns', async () => {
    const { status, body } = await list(uniqueAccountId());
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 25 } });
  });
});

describe('GET /api/v1/campaigns filters', () => {
  let account: number;
  beforeAll(async () => {
    account = uniqueAccountId();
    await createCampaigns(harness.pool, account, [
      { name: 'Summer 100% deal', status: 'sent', sent_at: new Date() },
      { name: 'Summer 1000 deal', status: 'draft' },
      { name: 'snake_case news', status: 'draft' },
      { name: 'snakeXcase news', status: 'sent', sent_at: new Date() },
      { name: 'Plain name', subject: 'Your WINTER offer', status: 'scheduled', send_at: new Date() },
      { name: 'Another', title: 'Winter greetings', status: 'approved' },
      { name: 'back\\slash', status: 'failed' },
    ]);
  });

  it('status returns only campaigns in that status', async () => {
    const { body } = await list(account, '?status=sent');
    expect(names(body).sort()).toEqual(['Summer 100% deal', 'snakeXcase news']);
    expect(body.meta.total_count).toBe(2);
    for (const status of ['scheduled', 'approved', 'failed', 'sending']) {
      const { body: filtered } = await list(account, `?status=${status}`);
      expect(filtered.data.every((campaign) => campaign.status === status)).toBe(true);
      expect(filtered.meta.total_count).toBe(status === 'sending' ? 0 : 1);
    }
  });

  it('an unknown, empty, wrongly cased or repeated status answers 422 with errors', async () => {
    for (const query of ['?status=archived', '?status=', '?status=SENT', '?status=sent&status=draft']) {
      const { status, body } = await list(account, query);
      expect({ query, status }).toEqual({ query, status: 422 });
      expect(body.errors).toEqual([expect.stringMatching(/^status /)]);
    }
  });

  it('q matches name, title or subject case-insensitively as a substring', async () => {
    expect(names((await list(account, '?q=summer')).body).sort()).toEqual(['Summer 100% deal', 'Summer 1000 deal']);
    expect(names((await list(account, '?q=wInTeR')).body).sort()).toEqual(['Another', 'Plain name']);
    expect(names((await list(account, '?q=ain na')).body)).toEqual(['Plain name']);
  });

  it('q takes % and _ (and the escape character) literally', async () => {
    expect(names((await list(account, `?q=${encodeURIComponent('100%')}`)).body)).toEqual(['Summer 100% deal']);
    expect(names((await list(account, '?q=snake_case')).body)).toEqual(['snake_case news']);
    expect(names((await list(account, '?q=_')).body)).toEqual(['snake_case news']);
    expect(names((await list(account, `?q=${encodeURIComponent('%')}`)).body)).toEqual(['Summer 100% deal']);
    expect(names((await list(account, `?q=${encodeURIComponent('\\')}`)).body)).toEqual(['back\\slash']);
  });

  it('status and q combine (both must hold) and count only the matches', async () => {
    const { body } = await list(account, '?status=draft&q=SUMMER');
    expect(names(body)).toEqual(['Summer 1000 deal']);
    expect(body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 1, per_page: 25 });
    expect((await list(account, '?status=failed&q=summer')).body.data).toEqual([]);
  });

  it('an empty q is no filter; an overlong q is 422', async () => {
    expect((await list(account, '?q=')).body.meta.total_count).toBe(7);
    const { status, body } = await list(account, `?q=${'a'.repeat(201)}`);
    expect(status).toBe(422);
    expect(body.errors).toEqual([expect.stringMatching(/^q /)]);
  });
});

describe('GET /api/v1/campaigns pagination', () => {
  let account: number;
  let ids: number[];
  beforeAll(async () => {
    account = uniqueAccountId();
    ids = await createCampaigns(harness.pool, account, Array.from({ length: 30 }, (_, i) => ({ name: `Item ${i}` })));
  });
  const newestFirst = () => [...ids].reverse();

  it('defaults to page 1 of 25', async () => {
    const { body } = await list(account);
    expect(body.meta).toEqual({ current_page: 1, total_pages: 2, total_count: 30, per_page: 25 });
    expect(body.data.map((campaign) => campaign.id)).toEqual(newestFirst().slice(0, 25));
  });

  it('page and per_page select the slice', async () => {
    const { body } = await list(account, '?page=2');
    expect(body.data.map((campaign) => campaign.id)).toEqual(newestFirst().slice(25));
    const { body: small } = await list(account, '?per_page=7&page=3');
    expect(small.meta).toEqual({ current_page: 3, total_pages: 5, total_count: 30, per_page: 7 });
    expect(small.data.map((campaign) => campaign.id)).toEqual(newestFirst().slice(14, 21));
  });

  it('per_page above 100 is served as 100', async () => {
    for (const perPage of ['101', '5000', '9'.repeat(40)]) {
      const { status, body } = await list(account, `?per_page=${perPage}`);
      expect(status).toBe(200);
      expect(body.meta).toEqual({ current_page: 1, total_pages: 1, total_count: 30, per_page: 100 });
      expect(body.data).toHaveLength(30);
    }
  });

  it('a page past the end is empty data with the true meta', async () => {
    const { status, body } = await list(account, '?page=4&per_page=10');
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], meta: { current_page: 4, total_pages: 3, total_count: 30, per_page: 10 } });
    const far = await list(account, '?page=9007199254740991&per_page=100');
    expect(far.status).toBe(200);
    expect(far.body).toEqual({ data: [], meta: { current_page: 9007199254740991, total_pages: 1, total_count: 30, per_page: 100 } });
  });

  it('page or per_page that is not a positive integer answers 422 naming each', async () => {
    const cases = ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'page=', 'page=1e2', 'per_page=0', 'per_page=-5', 'per_page=x'];
    for (const query of cases) {
      const { status, body } = await list(account, `?${query}`);
      expect({ query, status }).toEqual({ query, status: 422 });
      expect(body.errors).toEqual([expect.stringMatching(new RegExp(`^${query.split('=')[0]} must be a positive integer`))]);
    }
    const { body } = await list(account, '?page=0&per_page=zero&status=nope');
    expect(body.errors).toHaveLength(3);
  });
});
