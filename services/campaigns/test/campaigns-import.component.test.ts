import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serviceTestEnv } from '@mailer/testing';
import { runAdmin } from '../src/cli/admin';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';
import { uniqueAccountId } from './factories/campaigns';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const COMPILED_CLI = path.join(ROOT, 'services/campaigns/dist/cli/admin.js');

let harness: CampaignsHarness;
let dir: string;
beforeAll(async () => {
  if (!existsSync(COMPILED_CLI)) throw new Error(`${COMPILED_CLI} is missing: run npx tsc -b before the tests`);
  harness = await startCampaignsHarness();
  dir = await mkdtemp(path.join(tmpdir(), 'campaigns-import-'));
});
afterAll(async () => {
  await harness.stop();
  await rm(dir, { recursive: true, force: true });
});

// The CLI reaches this run's database through the same variables a service reads.
const cliEnv = () => {
  const { POSTGRES_URL, DB_PREFIX } = serviceTestEnv();
  return { PATH: process.env.PATH ?? '', POSTGRES_URL: POSTGRES_URL!, DB_PREFIX: DB_PREFIX! };
};

async function writeJson(name: string, content: unknown) {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function spawnCli(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { env, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const countFor = async (account: number) =>
  (await harness.pool.query<{ n: number }>('SELECT count(*) AS n FROM campaigns WHERE account_id = $1', [account])).rows[0]!.n;

describe('npm run admin -- campaigns import FILE --account ID', () => {
  it('imports every row of a valid file in order and prints the new ids as JSON', async () => {
    const account = uniqueAccountId();
    await writeJson('good.json', [
      { name: 'Welcome', title: 'Hi', status: 'sent', sent_at: '2026-04-01T12:00:00+02:00', emails_sent: 9, total_recipients: 10 },
      { name: 'Next', subject: 'Quarterly NEWS', status: 'scheduled', send_at: '2026-12-24T08:00:00Z', preview_text: 'Soon' },
    ]);
    // Through the dispatcher, with a file name relative to the operator's directory (npm's INIT_CWD).
    const result = await spawnCli(path.join(ROOT, 'scripts/admin.mjs'), ['campaigns', 'import', 'good.json', '--account', String(account)], {
      ...cliEnv(),
      INIT_CWD: dir,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const printed = JSON.parse(result.stdout) as { account_id: number; imported: number; ids: number[] };
    expect(printed).toEqual({ account_id: account, imported: 2, ids: [expect.any(Number), expect.any(Number)] });
    expect(printed.ids[1]!).toBeGreaterThan(printed.ids[0]!);

    const list = (await (await harness.request(account, '/api/v1/campaigns')).json()) as { data: Array<Record<string, unknown>> };
    expect(list.data).toEqual([
      expect.objectContaining({ id: printed.ids[1], name: 'Next', status: 'scheduled', send_at: '2026-12-24T08:00:00.000Z', sent_at: null, preview_text: 'Soon', emails_sent: 0 }),
      expect.objectContaining({ id: printed.ids[0], name: 'Welcome', title: 'Hi', status: 'sent', send_at: null, sent_at: '2026-04-01T10:00:00.000Z', emails_sent: 9, total_recipients: 10 }),
    ]);
    const bySubject = (await (await harness.request(account, '/api/v1/campaigns?q=quarterly')).json()) as { data: Array<{ id: number }> };
    expect(bySubject.data.map((campaign) => campaign.id)).toEqual([printed.ids[1]]);
  });

  it('refuses the whole file when one row is invalid, lists every problem with its row, and inserts nothing', async () => {
    const account = uniqueAccountId();
    const file = await writeJson('bad.json', [
      { name: 'Fine one' },
      { name: 'Fine two', status: 'sent', sent_at: '2026-01-01T00:00:00Z' },
      { name: '', status: 'archived', emails_sent: -1, send_at: 'tomorrow', id: 7 },
      { name: 'Scheduled without a date', status: 'scheduled' },
    ]);
    const result = await spawnCli(COMPILED_CLI, ['campaigns', 'import', file, '--account', String(account)], cliEnv());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n').slice(1).map((line) => line.trim());
    expect(lines).toEqual([
      'row 2: name: must not be empty',
      'row 2: status: must be one of draft, scheduled, sent, failed, approved, sending',
      expect.stringMatching(/^row 2: emails_sent: /),
      expect.stringMatching(/^row 2: send_at: must be an ISO 8601 timestamp/),
      'row 2: Unrecognized key: "id"',
      'row 3: send_at: is required when status is scheduled',
    ]);
    expect(result.stderr).toMatch(/^nothing imported from .*bad\.json; 6 problem\(s\):/);
    expect(await countFor(account)).toBe(0);
  });

  describe('refusals before any write', () => {
    const captured = () => {
      const out = { stdout: '', stderr: '' };
      const io = {
        env: cliEnv(),
        cwd: dir,
        stdout: (text: string) => void (out.stdout += text),
        stderr: (text: string) => void (out.stderr += text),
      };
      return { out, io };
    };

    it('bad usage exits 2 with the usage on stderr', async () => {
      for (const argv of [[], ['campaigns', 'import', 'x.json'], ['campaigns', 'export', 'x.json', '--account', '1'], ['campaigns', 'import', 'x.json', '--account', 'abc'], ['campaigns', 'import', 'x.json', '--acount', '1']]) {
        const { out, io } = captured();
        expect(await runAdmin(argv, io)).toBe(2);
        expect(out.stderr).toMatch(/usage: npm run admin -- campaigns import FILE --account ID/);
        expect(out.stdout).toBe('');
      }
    });

    it('a file that is not JSON, not an array, or missing exits 1 and imports nothing', async () => {
      const account = uniqueAccountId();
      const notJson = await writeJson('not-json.json', '[{"name": ');
      const notArray = await writeJson('object.json', { name: 'single' });
      const expectations: Array<[string, RegExp]> = [
        [notJson, /is not valid JSON/],
        [notArray, /the file must hold a JSON array of campaigns/],
        [path.join(dir, 'missing.json'), /ENOENT/],
      ];
      for (const [file, message] of expectations) {
        const { out, io } = captured();
        expect(await runAdmin(['campaigns', 'import', file, '--account', String(account)], io)).toBe(1);
        expect(out.stderr).toMatch(message);
        expect(out.stdout).toBe('');
      }
      expect(await countFor(account)).toBe(0);
    });
  });
});
