import { IDENTITY_HEADER } from '@mailer/shared';
import { signedIdentityFor, startPrivatePostgres, waitFor, type PrivateServer } from '@mailer/testing';
import { newAccountId, startContactsForTest, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

interface Sample {
  op: 'create' | 'get' | 'list';
  startedAt: number;
  ms: number;
  status: number | 'hang' | 'network-error';
  body: unknown;
  email?: string;
}

const OUTAGE_MS = 2500;

/** One signed call with a hard client timeout, so a hang is measured instead of stalling the test. */
async function timedCall(baseUrl: string, accountId: number, method: string, path: string, body?: unknown) {
  const startedAt = Date.now();
  try {
    const url = `${baseUrl}/api/v1/contacts${path}`;
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, {
      method,
      headers: {
        [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body: sent }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: sent,
      signal: AbortSignal.timeout(5000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // kept as text: a non-JSON body fails the assertions below
    }
    return { startedAt, ms: Date.now() - startedAt, status: response.status, body: parsed };
  } catch (error) {
    const hang = error instanceof Error && error.name === 'TimeoutError';
    return { startedAt, ms: Date.now() - startedAt, status: hang ? ('hang' as const) : ('network-error' as const), body: undefined };
  }
}

describe('contacts while its Postgres is killed -9 under mixed load', () => {
  let postgres: PrivateServer;
  let service: ContactsTestService;
  const accountId = newAccountId();
  const samples: Sample[] = [];
  const createdIds = new Map<number, string>();

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    service = await startContactsForTest({ POSTGRES_URL: postgres.url });
  }, 30_000);
  afterAll(async () => {
    await service?.stop();
    await postgres?.stop();
  });

  /** Creates, gets and lists in a loop until told to stop; every answer is kept. */
  async function worker(index: number, running: () => boolean) {
    for (let step = index; running(); step += 1) {
      const known = [...createdIds.keys()];
      const op = (['create', 'get', 'list'] as const)[step % 3]!;
      if (op === 'create') {
        const email = uniqueEmail();
        const result = await timedCall(service.url, accountId, 'POST', '', { email, tags: ['load'] });
        const data = (result.body as { data?: { id?: number } } | undefined)?.data;
        if (result.status === 201 && typeof data?.id === 'number') createdIds.set(data.id, email);
        samples.push({ op, email, ...result });
      } else if (op === 'get' && known.length > 0) {
        const id = known[step % known.length]!;
        samples.push({ op, ...(await timedCall(service.url, accountId, 'GET', `/${id}`)) });
      } else {
        samples.push({ op: 'list', ...(await timedCall(service.url, accountId, 'GET', '?per_page=5')) });
      }
    }
  }

  it('never crashes or hangs, answers 503 JSON within 2 s while down, recovers within 5 s, loses no 201 row', async () => {
    let running = true;
    const workers = [0, 1, 2, 3].map((index) => worker(index, () => running));
    await waitFor(() => (createdIds.size >= 20 ? true : undefined), { timeoutMs: 10_000, what: 'warm-up creates' });

    await postgres.kill9();
    const downAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const restartAt = Date.now();
    await postgres.restart();
    const upAt = Date.now();
    const createdBefore = createdIds.size;
    const recoveredAt = await waitFor(
      async () => {
        const ready = await fetch(`${service.url}/readyz`);
        return ready.status === 200 && createdIds.size > createdBefore ? Date.now() : undefined;
      },
      { timeoutMs: 10_000, what: 'recovery after restart' },
    );
    running = false;
    await Promise.all(workers);

    // Never a hang, never a 5xx other than 503, never a dropped connection.
    const unexpected = samples.filter((s) => ![200, 201, 503].includes(s.status as number));
    expect(unexpected.map((s) => ({ op: s.op, status: s.status, body: s.body }))).toEqual([]);
    expect(Math.max(...samples.map((s) => s.ms))).toBeLessThan(2000);

    // While Postgres was down, every request answered 503 with a JSON error and Retry-After's contract.
    const duringOutage = samples.filter((s) => s.startedAt > downAt + 50 && s.startedAt + s.ms < restartAt);
    expect(duringOutage.length).toBeGreaterThan(10);
    for (const sample of duringOutage) {
      expect(sample.status).toBe(503);
      expect(sample.body).toEqual({ error: expect.any(String) });
    }

    // Healthy again within 5 s of Postgres accepting connections.
    expect(recoveredAt - upAt).toBeLessThan(5000);

    // Every contact answered 201 is still there, with the address it was created with.
    for (const [id, email] of createdIds) {
      const found = await timedCall(service.url, accountId, 'GET', `/${id}`);
      expect(found.status).toBe(200);
      expect((found.body as { data: { email: string } }).data.email).toBe(email);
    }
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    process.stdout.write(
      `postgres outage: ${samples.length} requests, ${duringOutage.length} during the outage (all 503, max ` +
        `${Math.max(0, ...duringOutage.map((s) => s.ms))} ms), ready ${recoveredAt - upAt} ms after restart, ` +
        `${createdIds.size} rows created and all present\n`,
    );
  }, 60_000);
});
