import { example, having, valueAt, type Invocation } from './cli-invocation';

/** The campaigns CLI's usage lines, as printed (`recipients` is served by automation's CLI). */
const LINE = {
  campaignsImport: 'campaigns import FILE --account ID',
  campaignsCreate:
    'campaigns create --account ID --name N --subject S --html FILE [--text FILE] [--preview-text T] [--from-name N] [--from-address A] [--tag T]... [--all-tags]',
  campaignsUpdate:
    'campaigns update --id ID [--name N] [--subject S] [--html FILE] [--text FILE] [--preview-text T] [--from-name N] [--from-address A] [--tag T]... [--all-tags]',
  campaignsTest: 'campaigns test --id ID --to EMAIL',
  campaignsLifecycle: 'campaigns approve|return-to-draft|pause|resume|cancel|retry-failed --id ID',
  campaignsSend: 'campaigns send --id ID [--at ISO8601]',
  campaignsRecipients:
    'campaigns recipients --id ID [--outcome sent|failed|skipped|pending] [--after LEDGER_ID] [--limit N]',
  campaignsSettings: 'campaigns settings --account ID [--rate N] [--from-name N] [--from-address A]',
  campaignsReport: 'campaigns report --id ID [--format csv]',
};

const content = (inputs: { html: string; text: string }, name: string) => [
  ...['--name', name, '--subject', `${name}, {{ first_name | default: "there" }}`, '--html', inputs.html],
  ...['--text', inputs.text, '--preview-text', `${name} preview`, '--from-name', 'Launch team'],
  ...['--from-address', 'launch@example.test', '--tag', 'news', '--tag', 'vip', '--all-tags'],
];

/** Runs one lifecycle command on the campaign and expects it to land in `fields`. */
const drive = (command: string, fields: Record<string, unknown>, extra: string[] = []): Invocation => ({
  line: command === 'send' ? LINE.campaignsSend : LINE.campaignsLifecycle,
  args: (made) => ['campaigns', command, '--id', made('campaign'), ...extra],
  prints: () => ({ data: having(fields) }),
});

// Automation keeps a campaign's recipients once it starts sending it, and no automation runs here;
// test/e2e/campaign-outcomes.e2e.test.ts lists the recipients of a campaign that really sent.
const notSentByAutomation = (extra: string[]): Invocation => ({
  line: LINE.campaignsRecipients,
  args: (made) => ['campaigns', 'recipients', '--id', made('campaign'), ...extra],
  refusal: /campaign \d+ has not started sending: no recipients yet/,
});

/** A campaign from draft to cancelled, and an imported one retried: in this order. */
export const CAMPAIGN_INVOCATIONS: Invocation[] = [
  {
    line: LINE.campaignsImport,
    args: (made) => [
      'campaigns',
      'import',
      example('campaigns', 'history.json'),
      '--account',
      made('account'),
    ],
    prints: (made) => having({ account_id: Number(made('account')), imported: expect.any(Number) }),
    // The file's first campaign is a sent one: retry-failed has one to retry.
    keeps: (json) => ({ importedSent: valueAt(json, 'ids', 0) }),
  },
  {
    line: LINE.campaignsSettings,
    args: (made) => [
      'campaigns',
      'settings',
      '--account',
      made('account'),
      '--rate',
      '5',
      '--from-name',
      'Ops',
      '--from-address',
      'ops@example.test',
    ],
    prints: () => ({
      data: having({ rate_per_second: 5, from_name: 'Ops', from_address: 'ops@example.test' }),
    }),
  },
  {
    line: LINE.campaignsCreate,
    args: (made, inputs) => [
      'campaigns',
      'create',
      '--account',
      made('account'),
      ...content(inputs, 'Launch'),
    ],
    prints: () => ({
      data: having({
        status: 'draft',
        preview_text: 'Launch preview',
        text: expect.stringContaining('plain'),
        from_name: 'Launch team',
        audience: { tags: ['news', 'vip'], match: 'all', segment_id: null },
      }),
    }),
    keeps: (json) => ({ campaign: valueAt(json, 'data', 'id') }),
  },
  // A draft's report: every figure zero (the report of a sent campaign is tested in services/campaigns).
  {
    line: LINE.campaignsReport,
    args: (made) => ['campaigns', 'report', '--id', made('campaign')],
    output: /^Campaign \d+ "Launch" \(draft\)\n[^]*^Delivered +0 *$/m,
  },
  {
    line: LINE.campaignsReport,
    args: (made) => ['campaigns', 'report', '--id', made('campaign'), '--format', 'csv'],
    output: /^metric,value\r\ncampaign_id,\d+\r\nname,Launch\r\nstatus,draft\r\n[^]*\r\nurl,unique_clicks,total_clicks\r\n$/,
  },
  {
    line: LINE.campaignsUpdate,
    args: (made, inputs) => [
      'campaigns',
      'update',
      '--id',
      made('campaign'),
      ...content(inputs, 'Launch day'),
    ],
    prints: () => ({
      data: having({
        name: 'Launch day',
        preview_text: 'Launch day preview',
        from_address: 'launch@example.test',
      }),
    }),
  },
  {
    line: LINE.campaignsTest,
    args: (made) => ['campaigns', 'test', '--id', made('campaign'), '--to', 'me@example.test'],
    prints: () => ({ data: having({ queued: true }) }),
  },
  drive('approve', { status: 'approved' }),
  drive('return-to-draft', { status: 'draft' }),
  drive('approve', { status: 'approved' }),
  drive('send', { status: 'scheduled' }, ['--at', '2099-01-01T09:00:00.000Z']),
  drive('cancel', { status: 'approved', send_at: null }),
  drive('send', { status: 'sending' }),
  drive('pause', { status: 'sending', paused: true }),
  drive('resume', { status: 'sending', paused: false }),
  drive('cancel', { status: 'failed', failure_reason: 'cancelled' }),
  {
    line: LINE.campaignsLifecycle,
    args: (made) => ['campaigns', 'retry-failed', '--id', made('importedSent')],
    prints: () => ({ data: having({ status: 'sending' }) }),
  },
  notSentByAutomation(['--outcome', 'sent']),
  notSentByAutomation(['--outcome', 'failed']),
  notSentByAutomation(['--outcome', 'skipped', '--limit', '10']),
  notSentByAutomation(['--outcome', 'pending', '--after', '1']),
];
