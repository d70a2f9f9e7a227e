import fc from 'fast-check';
import { z } from 'zod';
import {
  answerProblem,
  hostileBodies,
  prototypeNames,
  rawRequest,
  schemaArbitrary,
  wrongValue,
  type JsonSchema,
  type RawResponse,
} from '@mailer/testing';
import { CAMPAIGN_STATUSES } from '../src/domain/campaign';
import { listQuerySchema } from '../src/entry-points/api/list-campaigns.query';
import { createCampaign, createCampaigns, uniqueAccountId } from './factories/campaigns';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const CAMPAIGN_FIELDS = [
  'id', 'name', 'title', 'status', 'preview_text', 'emails_sent', 'emails_failed', 'total_recipients',
  'unsubscribes_count', 'send_at', 'sent_at', 'created_at', 'updated_at',
].sort();

/** Query values: what the schema accepts (derived from it), edge numbers, and hostile text. */
function queryPairs() {
  const schema = z.toJSONSchema(listQuerySchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const keys = Object.keys(schema.properties ?? {});
  const valid = fc.oneof(
    fc.constantFrom(...CAMPAIGN_STATUSES),
    fc.constantFrom('1', '2', '25', '100', '101', '9007199254740991', '9007199254740992'),
    schemaArbitrary({ type: 'string', maxLength: 200 }) as fc.Arbitrary<string>,
  );
  const invalid = fc.oneof(
    fc.constantFrom('', '0', '-1', '1.5', '1e2', ' 1', 'DRAFT', 'draft ', 'a\u0000b', '\ud800', 'x'.repeat(201), '%', '_', '\\'),
    wrongValue().map((value) => JSON.stringify(value) ?? ''),
  );
  return fc.array(fc.tuple(fc.constantFrom(...keys, 'other', '__proto__'), fc.oneof(valid, invalid)), { maxLength: 6 });
}

describe('campaigns API under generated and hostile input', () => {
  let harness: CampaignsHarness;
  const owner = uniqueAccountId();
  const stranger = uniqueAccountId();
  let mine: number[];
  let strangers: number;
  const prototypeBefore = prototypeNames();
  const statuses: Record<string, Record<number, number>> = {};

  const call = async (label: string, request: Parameters<typeof rawRequest>[2], allowed: number[]) => {
    const response = await rawRequest(harness.service.url, owner, request);
    const problem = answerProblem(response, allowed);
    if (problem) throw new Error(`${label} ${request.method} ${request.path}: ${problem}`);
    const ok = response as RawResponse;
    statuses[label] = { ...statuses[label], [ok.status]: (statuses[label]?.[ok.status] ?? 0) + 1 };
    return ok;
  };

  beforeAll(async () => {
    harness = await startCampaignsHarness();
    mine = await createCampaigns(
      harness.pool,
      owner,
      CAMPAIGN_STATUSES.map((status) => ({
        status,
        name: `Fuzz ${status} 100%_off \\ sale`,
        send_at: status === 'scheduled' ? new Date() : null,
        sent_at: status === 'sent' ? new Date() : null,
      })),
    );
    strangers = await createCampaign(harness.pool, stranger, { name: 'Fuzz stranger' });
  });
  afterAll(async () => {
    await harness?.stop();
    process.stdout.write(`campaigns fuzz statuses: ${JSON.stringify(statuses)}\n`);
  });

  it(`GET /campaigns: ${RUNS} generated query strings, never a 5xx, exact campaign shape, never another account's`, async () => {
    await fc.assert(
      fc.asyncProperty(queryPairs(), async (pairs) => {
        const response = await call('list', { method: 'GET', path: `/api/v1/campaigns?${new URLSearchParams(pairs).toString()}` }, [200, 422]);
        if (response.status !== 200) return;
        const { data, meta } = response.json as { data: Array<Record<string, unknown>>; meta: { per_page: number } };
        expect(meta.per_page).toBeLessThanOrEqual(100);
        expect(data.length).toBeLessThanOrEqual(meta.per_page);
        for (const campaign of data) {
          expect(Object.keys(campaign).sort()).toEqual(CAMPAIGN_FIELDS);
          expect(mine).toContain(campaign.id);
        }
      }),
      { numRuns: RUNS },
    );
    expect(statuses.list?.[200]).toBeGreaterThan(RUNS / 20);
    expect(statuses.list?.[422]).toBeGreaterThan(RUNS / 20);
  }, 120_000);

  it(`GET /campaigns/:id: ${RUNS} generated ids, only own campaigns found`, async () => {
    const id = fc.oneof(
      fc.constantFrom(...mine.map(String), String(strangers)),
      fc.integer({ min: -5, max: 2 ** 31 }).map(String),
      fc.constantFrom('0', '-1', '1e3', '0x10', '1.0', '9007199254740993', '99999999999999999999', '%00', 'null', '__proto__'),
      fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(id, async (text) => {
        const response = await call('get', { method: 'GET', path: `/api/v1/campaigns/${text}` }, [200, 404]);
        if (response.status !== 200) return;
        const found = (response.json as { data: { id: number } }).data.id;
        expect(mine).toContain(found);
        expect(found).toBe(Number(text));
      }),
      { numRuns: RUNS },
    );
    expect(statuses.get?.[200]).toBeGreaterThan(0);
  }, 120_000);

  it(`writes: ${RUNS} generated methods, paths and bodies, always 405 JSON (campaigns are read-only), nothing changed`, async () => {
    const before = await harness.pool.query('SELECT id, name, status, updated_at FROM campaigns WHERE account_id = $1 ORDER BY id', [owner]);
    const write = fc.record({
      method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
      path: fc.constantFrom('/api/v1/campaigns', ...mine.map((id) => `/api/v1/campaigns/${id}`), `/api/v1/campaigns/${strangers}`),
      body: fc.oneof(wrongValue(), schemaArbitrary({ type: 'object', properties: { name: { type: 'string' }, status: { enum: [...CAMPAIGN_STATUSES] } } })),
    });
    await fc.assert(
      fc.asyncProperty(write, async ({ method, path, body }) => {
        await call('write', { method, path, body: Buffer.from(JSON.stringify(body) ?? 'null') }, [405]);
      }),
      { numRuns: RUNS },
    );
    const after = await harness.pool.query('SELECT id, name, status, updated_at FROM campaigns WHERE account_id = $1 ORDER BY id', [owner]);
    expect(after.rows).toEqual(before.rows);
  }, 120_000);

  it('raw-body attacks and a 64 KiB header: every answer a 4xx JSON, the service keeps serving, no pollution', async () => {
    for (const attack of hostileBodies({ name: 'Raw', status: 'draft' }, 1024 * 1024)) {
      for (const method of ['POST', 'PATCH']) {
        await call('raw', { method, path: `/api/v1/campaigns/${mine[0]}`, body: attack.body, contentType: attack.contentType }, [405]);
      }
    }
    const big = await rawRequest(harness.service.url, owner, { method: 'GET', path: '/api/v1/campaigns', headers: { 'x-padding': 'a'.repeat(64 * 1024) } });
    expect(answerProblem(big, [431])).toBeUndefined();
    expect((await harness.request(owner, `/api/v1/campaigns/${mine[0]}`)).status).toBe(200);
    expect(prototypeNames()).toBe(prototypeBefore);
    expect((await fetch(`${harness.service.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
