import { serviceTestEnv, waitFor } from '@mailer/shared/testing';
import { findApiKey } from '../src/data-access/api-keys.repository';
import { runAdmin } from '../src/cli/admin';
import { utcDay } from './support/factories';
import { capturedLogs, expectNoKeyInLogs, headersFor, issuedKeys, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';
import { startFakeUpstream } from './support/fake-upstream';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function admin(...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(argv, {
    env: serviceTestEnv(),
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  // The CLI prints a new key once; it must never reach a log line either.
  for (const match of stdout.matchAll(/mk_live_\w+/g)) issuedKeys.push(match[0]);
  return { code, stdout, stderr };
}

const json = <T>(run: Run): T => JSON.parse(run.stdout) as T;

describe('operator CLI (accounts, users, keys)', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ CONTACTS_SERVICE_URL: upstream.url });
  });
  afterAll(async () => {
    await stopGateways();
    await upstream.close();
    expectNoKeyInLogs();
    expect(capturedLogs.length).toBeGreaterThan(0);
  });

  it('creates an account, a user and keys; lists them with status; revokes one for every gateway', async () => {
    const account = json<{ id: number; plan: string; api_access: boolean }>(await admin('accounts', 'create', '--name', 'Acme CLI', '--plan', 'pro'));
    expect(account).toMatchObject({ plan: 'pro', api_access: true });
    const user = await admin('users', 'create', '--account', String(account.id), '--email', `ops${Date.now()}@example.test`, '--password', 'correct horse battery');
    expect(user.code).toBe(0);
    expect(user.stdout).not.toMatch(/correct horse|password/);

    const created = json<{ id: number; key: string; status: string }>(
      await admin('keys', 'create', '--account', String(account.id), '--name', 'ci', '--expires', utcDay(30)),
    );
    expect(created.key).toMatch(/^mk_live_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    expect(created.status).toBe('active');
    const old = json<{ id: number }>(await admin('keys', 'create', '--account', String(account.id), '--name', 'old', '--expires', utcDay(-1)));

    const use = () => fetch(`${gateway.url}/api/v1/contacts`, { headers: headersFor(created.key, uniqueIp()) });
    expect((await use()).status).toBe(200);
    await waitFor(async () => ((await findApiKey(gateway.pool, created.id))?.lastUsedAt ? true : undefined), { what: 'last_used_at' });

    const revoked = await admin('keys', 'revoke', '--id', String(created.id));
    expect(revoked.code).toBe(0);
    expect(json<{ status: string }>(revoked).status).toBe('revoked');
    expect((await use()).status).toBe(401);

    const listed = await admin('keys', 'list', '--account', String(account.id));
    expect(listed.stdout).not.toContain('mk_live_');
    const keys = json<Array<{ id: number; status: string; last_used_at: string | null }>>(listed);
    expect(keys.map(({ id, status }) => ({ id, status }))).toEqual([
      { id: old.id, status: 'expired' },
      { id: created.id, status: 'revoked' },
    ]);
    expect(keys[1]!.last_used_at).not.toBeNull();
  });

  it('refuses bad arguments with a message on stderr and a non-zero exit', async () => {
    const cases = [
      ['accounts', 'create', '--name', 'x', '--plan', 'gold'],
      ['accounts', 'create', '--plan', 'pro'],
      ['keys', 'create', '--account', 'abc', '--name', 'k'],
      ['keys', 'create', '--account', '1', '--name', 'k', '--expires', '2024-02-30'],
      ['keys', 'list', '--account', '999999999'],
      ['keys', 'revoke', '--id', '999999999'],
      ['keys', 'explode'],
      ['users', 'create', '--account', '1', '--email', 'not-an-email', '--password', 'long enough pw'],
      ['accounts', 'create', '--name', 'x', '--plan', 'pro', '--unknown', 'y'],
    ];
    for (const argv of cases) {
      const run = await admin(...argv);
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr.length).toBeGreaterThan(5);
    }
  });
});
