import { randomBytes } from 'node:crypto';
import { createLogger } from '@mailer/shared';
import { importCampaigns, prepareCampaignImport } from '../../services/campaigns/src/domain/import-campaigns';
import { markRevokedInRedis } from '../../services/gateway/src/data-access/revocation-marker';
import { generateKey } from '../../services/gateway/src/domain/api-key-format';
import { createApiKey, revokeApiKey } from '../../services/gateway/src/domain/manage-api-keys';
import { CREDENTIALS, METHODS, ROUTE_TABLE, expectedStatus, massAssignmentFields, type Credential, type Method, type RouteRow } from './authorization-table';
import { operationsOf, type Document } from './openapi-tools';
import { startProduct, type Product } from './stack-harness';

/** Every log line of every service, at trace level, to prove no key reaches a log. */
const capturedLogs: string[] = [];
const run = randomBytes(4).toString('hex');
/** Every string that marks one of account A's rows; none may reach another credential's answer. */
const markerOfA = `a-${run}`;

describe('authorization matrix: every credential x every public route x every method', () => {
  let product: Product;
  let keys: Record<Credential, string | undefined>;
  let accountA: number;
  let accountB: number;
  let campaignOfA: number;
  let emails = 0;

  beforeAll(async () => {
    product = await startProduct({
      logger: (service) => createLogger(service, { level: 'trace', destination: { write: (line: string) => void capturedLogs.push(line) } }),
      // Refused keys are the point of this suite: the brute-force block must not turn them into 429s.
      // Its own Redis prefix keeps these failures out of other suites' per-IP counters (all from 127.0.0.1).
      gatewayEnv: { AUTH_FAIL_LIMIT: '100000', RATE_LIMIT_IP_PER_MIN: '100000', REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? ''}authz-${run}:` },
    });
    const a = await product.anAccountWithKey();
    const b = await product.anAccountWithKey();
    const free = await product.anAccountWithKey('free');
    accountA = a.accountId;
    accountB = b.accountId;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const expired = await createApiKey(product.gateway.pool, { accountId: accountA, name: 'expired', expiresOn: yesterday, allowPast: true });
    const revoked = await createApiKey(product.gateway.pool, { accountId: accountA, name: 'revoked', expiresOn: null });
    // Used once (so the gateway has it cached), then revoked the way the settings screen does it.
    expect((await product.api(revoked.plaintext, 'GET', '/contacts')).status).toBe(200);
    await revokeApiKey({ pool: product.gateway.pool, announceRevocation: (keyId) => markRevokedInRedis(product.gateway.redis, keyId) }, revoked.key.id);
    keys = { A: a.key, B: b.key, free: free.key, revoked: revoked.plaintext, expired: expired.plaintext, unknown: generateKey().plaintext, none: undefined };
    await contactOfA();
    const [campaign] = await importCampaigns(product.campaigns.pool, accountA, prepareCampaignImport([{ name: `Launch ${markerOfA}`, title: 'Private', status: 'draft' }]));
    if (campaign === undefined) throw new Error('campaign import created nothing');
    campaignOfA = campaign;
  }, 90_000);
  afterAll(() => product?.stop());

  const nextEmail = (owner: string) => `${owner}-${run}-${++emails}@example.test`;

  async function call(credential: Credential, row: RouteRow, method: Method, path: string, body?: unknown) {
    const key = keys[credential];
    const base = row.listener === 'events' ? product.gateway.eventsUrl : `${product.gateway.url}/api/v1`;
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json: text ? (JSON.parse(text) as { data?: Record<string, unknown> }) : undefined };
  }

  async function contactOfA(): Promise<Record<string, unknown>> {
    const created = await product.api(keys.A ?? '', 'POST', '/contacts', { email: nextEmail(markerOfA), first_name: 'Original' });
    expect(created.status).toBe(201);
    return created.body?.data as Record<string, unknown>;
  }

  const readAs = (credential: 'A' | 'B', path: string) => product.api(keys[credential] ?? '', 'GET', path);

  function bodyFor(row: RouteRow, method: Method, owner: string): unknown {
    if (method === 'GET' || method === 'DELETE') return undefined;
    const base = massAssignmentFields(owner === 'A' ? accountB : accountA);
    if (row.listener === 'events') return { ...base, event: 'matrix_probe', email: nextEmail(owner) };
    if (row.owns === 'contact') return { ...base, first_name: 'Patched' };
    return { ...base, email: nextEmail(owner), name: `Injected ${owner}` };
  }

  it('has a row for every route and method the served OpenAPI document lists, and no row the document lacks', async () => {
    const document = (await (await fetch(`${product.gateway.url}/api/v1/openapi.json`)).json()) as Document;
    const served = operationsOf(document).map(({ path, method }) => {
      const listener = (document.paths[path] as { servers?: unknown }).servers ? 'events' : 'rest';
      return `${listener} ${method.toUpperCase()} ${path}`;
    });
    const table = ROUTE_TABLE.flatMap((row) => Object.keys(row.success).map((method) => `${row.listener} ${method} ${row.path}`));
    expect(served.length).toBeGreaterThanOrEqual(7);
    expect([...table].sort()).toEqual([...served].sort());
  });

  it.each(CREDENTIALS)('answers the expected status to key %s on every route and method, leaking and changing nothing', async (credential) => {
    const mismatches: string[] = [];
    for (const row of ROUTE_TABLE) {
      for (const method of METHODS) {
        const label = `${credential} ${method} ${row.path}`;
        const target = row.owns === 'contact' ? await contactOfA() : undefined;
        const id = row.owns === 'contact' ? Number(target?.id) : campaignOfA;
        const path = row.path.replace('{id}', String(id));
        const campaignBefore = (await readAs('A', `/campaigns/${campaignOfA}`)).body;
        const answer = await call(credential, row, method, path, bodyFor(row, method, credential === 'A' ? 'A' : 'other'));
        const expected = expectedStatus(credential, row, method);

        if (answer.status !== expected) mismatches.push(`${label}: ${answer.status}, expected ${expected} ${answer.text.slice(0, 120)}`);
        if (answer.status !== 204 && !answer.contentType.includes('application/json')) mismatches.push(`${label}: not JSON (${answer.contentType})`);
        if (credential !== 'A' && answer.text.includes(markerOfA)) mismatches.push(`${label}: answer shows account A's data`);
        // The owner's lists show its rows, so the leak check above looks at lists that hold A's data.
        if (credential === 'A' && method === 'GET' && answer.status === 200 && !row.owns && !answer.text.includes(markerOfA)) {
          mismatches.push(`${label}: owner's list does not show its own rows`);
        }
        mismatches.push(...(await protectedFieldProblems(label, credential, row, method, answer, target)));
        if (JSON.stringify((await readAs('A', `/campaigns/${campaignOfA}`)).body) !== JSON.stringify(campaignBefore)) {
          mismatches.push(`${label}: A's campaign changed`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 90_000);

  /** What a body could have done that it must not: protected fields written, rows moved or created in another account. */
  async function protectedFieldProblems(
    label: string,
    credential: Credential,
    row: RouteRow,
    method: Method,
    answer: Awaited<ReturnType<typeof call>>,
    before: Record<string, unknown> | undefined,
  ): Promise<string[]> {
    const problems: string[] = [];
    const sent = massAssignmentFields(0);
    const data = answer.json?.data;
    if (answer.status === 201 && data) {
      // A created contact: server-chosen id and timestamps, never bounced, in the caller's account only.
      if (data.id === sent.id || data.bounced !== false || data.created_at === sent.created_at) problems.push(`${label}: protected field taken from the body`);
      const other = credential === 'A' ? 'B' : 'A';
      if ((await readAs(other, `/contacts/${String(data.id)}`)).status !== 404) problems.push(`${label}: created row visible to account ${other}`);
    }
    if (answer.status === 202 && data && data.id === sent.id) problems.push(`${label}: event id taken from the body`);
    if (!before) return problems;
    const after = await readAs('A', `/contacts/${String(before.id)}`);
    if (credential === 'A' && method === 'DELETE') {
      if (after.status !== 404) problems.push(`${label}: owner's delete did not delete`);
      return problems;
    }
    const now = after.body?.data as Record<string, unknown> | undefined;
    if (after.status !== 200 || !now) return [...problems, `${label}: A's contact gone (${after.status})`];
    const expected = credential === 'A' && method === 'PATCH' ? { ...before, first_name: 'Patched', updated_at: now.updated_at } : before;
    if (JSON.stringify(now) !== JSON.stringify(expected)) problems.push(`${label}: A's contact changed: ${JSON.stringify(now)}`);
    if (now.updated_at === sent.updated_at) problems.push(`${label}: updated_at taken from the body`);
    if ((await readAs('B', `/contacts/${String(before.id)}`)).status !== 404) problems.push(`${label}: A's contact visible to B`);
    return problems;
  }

  it('never writes any issued or presented key (nor its secret) to a log line of any service', () => {
    expect(capturedLogs.length).toBeGreaterThan(100);
    const secrets = Object.values(keys).flatMap((key) => (key ? [key, key.split('_')[3]?.slice(0, 32) ?? key] : []));
    expect(secrets.length).toBe(12);
    expect(capturedLogs.filter((line) => secrets.some((secret) => line.includes(secret)))).toEqual([]);
  });
});
