import { serviceTestEnv } from '@mailer/testing';
import { runAdmin } from '../src/cli/admin';
import { createCampaign, uniqueAccountId } from './factories/campaigns';
import { startCampaignsHarness, type CampaignsHarness } from './setup/campaigns-harness';

let harness: CampaignsHarness;
beforeAll(async () => {
  harness = await startCampaignsHarness();
});
afterAll(() => harness.stop());

/** The CLI with only the database variables, as an operator runs it; stdout as printed. */
async function admin(...argv: string[]) {
  const { POSTGRES_URL, DB_PREFIX } = serviceTestEnv();
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(['campaigns', ...argv], {
    env: { POSTGRES_URL, DB_PREFIX },
    cwd: process.cwd(),
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** A sent campaign with 100 delivered, 5 bounced, 20 readers who opened (4 clicked two links) in its first hours. */
async function reportedCampaign(name: string) {
  const account = uniqueAccountId();
  const id = await createCampaign(harness.pool, account, { name, status: 'sent', sent_at: new Date(Date.now() - 86_400_000), emails_sent: 100, emails_failed: 5, total_recipients: 105, unsubscribes_count: 1 });
  await harness.pool.query('UPDATE campaigns SET emails_bounced = 5 WHERE id = $1', [id]);
  await harness.pool.query(
    `INSERT INTO campaign_engagement_contacts (campaign_id, contact_id, first_open_at, first_click_at, opens, clicks, machine_opens)
     SELECT $1, n, sent_at + interval '30 minutes', CASE WHEN n <= 4 THEN sent_at + interval '3 hours' END, 1, CASE WHEN n <= 4 THEN 2 ELSE 0 END, 1
       FROM campaigns, generate_series(1, 20) AS n WHERE id = $1`,
    [id],
  );
  await harness.pool.query(
    `INSERT INTO campaign_link_clicks (campaign_id, url_key, contact_id, url, clicks, first_click_at)
     SELECT $1, md5(url)::uuid, n, url, 1, now() FROM generate_series(1, 4) AS n,
            (VALUES ('https://example.test/a'), ('https://example.test/b,c')) AS links (url) WHERE url LIKE '%a' OR n <= 2`,
    [id],
  );
  return id;
}

describe('npm run admin -- campaigns report', () => {
  it('prints the report as a table: figures with rates of delivered, the active hours, the links', async () => {
    const id = await reportedCampaign('Spring sale');
    const { code, stdout } = await admin('report', '--id', String(id));
    expect(code).toBe(0);
    expect(stdout).toContain(`Campaign ${id} "Spring sale" (sent)`);
    expect(stdout).toMatch(/^Delivered +100$/m);
    expect(stdout).toMatch(/^Bounced +5 +5\.0%$/m);
    expect(stdout).toMatch(/^Opened \(unique\) +20 +20\.0%$/m);
    expect(stdout).toMatch(/^Clicked \(total\) +8$/m);
    expect(stdout).toMatch(/^Machine opens +20$/m);
    expect(stdout).toMatch(/^0 +20 +0$/m);
    expect(stdout).toMatch(/^3 +0 +4$/m);
    expect(stdout).toMatch(/^https:\/\/example\.test\/a +4 +4\nhttps:\/\/example\.test\/b,c +2 +2$/m);
  });

  it('prints CSV with --format csv: one metric a row, rates as fractions, then the links (quoted where needed)', async () => {
    const id = await reportedCampaign('=cmd, "quoted"');
    const { code, stdout } = await admin('report', '--id', String(id), '--format', 'csv');
    expect(code).toBe(0);
    const lines = stdout.split('\r\n');
    expect(lines.slice(0, 5)).toEqual(['metric,value', `campaign_id,${id}`, `name,"'=cmd, ""quoted"""`, 'status,sent', 'total_recipients,105']);
    expect(lines).toEqual(expect.arrayContaining(['delivered,100', 'bounced,5', 'opened_unique,20', 'open_rate,0.2000', 'click_rate,0.0400', 'bounce_rate,0.0500']));
    expect(lines.slice(lines.indexOf('url,unique_clicks,total_clicks'))).toEqual([
      'url,unique_clicks,total_clicks',
      'https://example.test/a,4,4',
      '"https://example.test/b,c",2,2',
      '',
    ]);
  });

  it('an unknown campaign is exit 1; a bad --format or id is exit 2 with the usage', async () => {
    expect(await admin('report', '--id', '999999999999')).toMatchObject({ code: 1, stderr: expect.stringContaining('campaign not found') });
    expect(await admin('report', '--id', '1', '--format', 'xml')).toMatchObject({ code: 2, stderr: expect.stringContaining('--format takes csv') });
    expect(await admin('report', '--id', 'abc')).toMatchObject({ code: 2, stderr: expect.stringContaining('usage:') });
    expect(await admin('report')).toMatchObject({ code: 2, stderr: expect.stringContaining('--id is required') });
  });
});
