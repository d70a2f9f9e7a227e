import { IDENTITY_HEADER } from '@mailer/shared';
import { serviceTestEnv, signedIdentityFor, waitFor } from '@mailer/testing';
import { findApiKey } from '../src/data-access/api-keys.repository';
import { runAdmin } from '../src/cli/admin';
import { utcDay } from './support/factories';
import { capturedLogs, expectNoKeyInLogs, headersFor, issuedKeys, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';
import { startFakeUpstream } from './support/fake-upstream';
import { postSignIn } from './support/sign-in-client';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function admin(...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  // The database URLs only: the CLI signs nothing, so it must not ask for a secret.
  const { INTERNAL_SIGNING_SECRET: _unused, ...env } = serviceTestEnv();
  const code = await runAdmin(argv, {
    env,
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

  it('lists accounts and users, moves an account to another plan, and resets a password (which ends its sessions)', async () => {
    const account = json<{ id: number }>(await admin('accounts', 'create', '--name', 'Plan Co', '--plan', 'pro'));
    const email = `reset${Date.now()}@example.test`;
    expect((await admin('users', 'create', '--account', String(account.id), '--email', email, '--password', 'first password 1')).code).toBe(0);

    const listed = json<Array<{ id: number; plan: string; users: number }>>(await admin('accounts', 'list'));
    expect(listed.find((row) => row.id === account.id)).toMatchObject({ plan: 'pro', users: 1 });
    const moved = json<{ plan: string; api_access: boolean }>(await admin('accounts', 'set-plan', '--account', String(account.id), '--plan', 'free'));
    expect(moved).toMatchObject({ plan: 'free', api_access: false });
    const users = json<Array<{ account_id: number; email: string }>>(await admin('users', 'list', '--account', String(account.id)));
    expect(users).toEqual([expect.objectContaining({ account_id: account.id, email })]);

    const signIn = async (password: string) => postSignIn(gateway.internalUrl, { email, password, ip: uniqueIp() });
    const first = await signIn('first password 1');
    expect(first.status).toBe(200);
    const user = (JSON.parse(first.text) as { data: { id: number; credentials_stamp: string } }).data;
    // A generated password may begin with a dash (base64url): the `=` form passes it, as quickstart does.
    const reset = await admin('users', 'set-password', '--email', email.toUpperCase(), '--password=-second password 2');
    expect(reset.code).toBe(0);
    expect(reset.stdout).not.toContain('second password');
    // The account app's sessions hold the stamp they signed in with: it changed, so they are over.
    const url = `${gateway.internalUrl}/internal/v1/users/${user.id}`;
    const now = await fetch(url, { headers: { [IDENTITY_HEADER]: signedIdentityFor(account.id, { url }) } });
    expect(((await now.json()) as { data: { credentials_stamp: string } }).data.credentials_stamp).not.toBe(user.credentials_stamp);
    expect((await signIn('first password 1')).status).toBe(401);
    expect((await signIn('-second password 2')).status).toBe(200);
  });

  it('refuses an unknown account, plan or user with a message and a non-zero exit, changing nothing', async () => {
    for (const argv of [
      ['accounts', 'set-plan', '--account', '999999999', '--plan', 'pro'],
      ['accounts', 'set-plan', '--account', '1', '--plan', 'gold'],
      ['users', 'set-password', '--email', 'nobody@example.test', '--password', 'long enough 123'],
      ['users', 'set-password', '--email', 'nobody@example.test', '--password', 'short'],
    ]) {
      const result = await admin(...argv);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/error|must/);
    }
  });
});
