import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serviceTestEnv } from '@mailer/testing';
import { runAdmin } from '../src/cli/admin';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';
import { uniqueAccountId } from './factories/campaigns';

let harness: CampaignsHarness;
let dir: string;
// A database of its own: another file's service would publish (and delete) the outbox rows read here.
const DB_PREFIX = `${process.env.DB_PREFIX}cli${randomBytes(3).toString('hex')}_`;
beforeAll(async () => {
  // The relay would publish the requests at once; held back, they stay in the outbox to be read.
  harness = await startCampaignsHarness({ CAMPAIGNS_OUTBOX_POLL_MS: '600000', DB_PREFIX });
  dir = await mkdtemp(path.join(tmpdir(), 'campaign-commands-'));
  await writeFile(path.join(dir, 'body.html'), '<p>Hello {{ first_name | default: "there" }}</p>');
});
afterAll(async () => {
  await harness.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The CLI with only the database variables (no signing secret, no broker), as an operator runs it. */
async function admin(...argv: string[]) {
  const { POSTGRES_URL } = serviceTestEnv();
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(['campaigns', ...argv], {
    env: { POSTGRES_URL, DB_PREFIX },
    cwd: dir,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stderr, json: stdout ? (JSON.parse(stdout) as { data: Record<string, unknown> }) : undefined };
}

const outbox = async (campaignId: number) =>
  (await harness.pool.query<{ type: string; payload: { action?: string } }>(
    `SELECT type, payload FROM outbox WHERE (payload->>'campaign_id')::bigint = $1 ORDER BY id`,
    [campaignId],
  )).rows;

describe('npm run admin -- campaigns (create, update, test, approve, send, pause, resume, cancel)', () => {
  it('drives a campaign from draft to sending with JSON out, each request to automation committed with its change', async () => {
    const account = uniqueAccountId();
    const created = await admin('create', '--account', String(account), '--name', 'Launch', '--subject', 'Hi {{ first_name }}', '--html', 'body.html', '--preview-text', 'Big news', '--tag', 'news', '--tag', 'vip', '--all-tags');
    expect(created.code).toBe(0);
    const campaign = created.json!.data as { id: number };
    expect(created.json!.data).toMatchObject({ status: 'draft', title: 'Hi {{ first_name }}', preview_text: 'Big news', audience: { tags: ['news', 'vip'], match: 'all' }, allowed_actions: expect.arrayContaining(['approve', 'edit', 'test']) });
    const id = String(campaign.id);

    expect((await admin('update', '--id', id, '--name', 'Launch day')).json!.data).toMatchObject({ name: 'Launch day' });
    expect((await admin('test', '--id', id, '--to', 'me@example.test')).code).toBe(0);
    expect((await admin('approve', '--id', id)).json!.data).toMatchObject({ status: 'approved' });

    const refused = await admin('update', '--id', id, '--name', 'Too late');
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('cannot edit a campaign that is approved') });

    expect((await admin('send', '--id', id)).json!.data).toMatchObject({ status: 'sending', total_recipients: 0 });
    expect((await admin('pause', '--id', id)).json!.data).toMatchObject({ status: 'sending', paused: true });
    expect((await admin('pause', '--id', id)).code).toBe(1);
    expect((await admin('resume', '--id', id)).json!.data).toMatchObject({ paused: false });
    expect((await admin('cancel', '--id', id)).json!.data).toMatchObject({ status: 'failed', failure_reason: 'cancelled' });

    const requests = await outbox(campaign.id);
    expect(requests.map((row) => row.payload.action ?? row.type)).toEqual([
      'campaign.test_requested.v1',
      'campaign.send_requested.v1',
      'pause',
      'resume',
      'cancel',
    ]);
  });

  it('schedules with --at and refuses bad usage with exit 2 and nothing written', async () => {
    const account = uniqueAccountId();
    const created = await admin('create', '--account', String(account), '--name', 'Later', '--subject', 'Later', '--html', 'body.html');
    const id = String((created.json!.data as { id: number }).id);
    await admin('approve', '--id', id);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await admin('send', '--id', id, '--at', at)).json!.data).toMatchObject({ status: 'scheduled', send_at: at });
    expect((await admin('cancel', '--id', id)).json!.data).toMatchObject({ status: 'approved', send_at: null });

    expect((await admin('send', '--id', id, '--at', 'tomorrow')).code).toBe(2);
    expect((await admin('create', '--account', String(account), '--name', 'No body', '--subject', 'S')).code).toBe(2);
    expect((await admin('create', '--account', String(account), '--name', 'Missing', '--subject', 'S', '--html', 'missing.html')).code).toBe(1);
    expect((await admin('approve', '--id', '999999999')).code).toBe(1);
    expect((await admin('frobnicate', '--id', id)).code).toBe(2);
    const { rows } = await harness.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM campaigns WHERE account_id = $1', [account]);
    expect(rows[0]!.count).toBe(1);
  });
});
