// The campaigns part of `npm run admin` (scripts/admin.mjs): `campaigns import FILE --account ID`
// and the campaign commands (create, update, test, approve, send, pause, resume, cancel, retry-failed, settings, report).
import { parseArgs } from 'node:util';
import { AppError, ConfigError, reportCliFailure, withServiceDatabase } from '@mailer/shared';
import { loadCampaignsCliConfig } from '../config';
import { campaignsDatabaseUrl, MIGRATIONS_DIR } from '../database';
import { runCampaignCommand, type CommandOptions } from './campaign-commands';
import { runImport, type CliIo } from './import-command';
import { runReportCommand } from './report-command';

const USAGE = [
  'usage: npm run admin -- campaigns import FILE --account ID',
  '       npm run admin -- campaigns create --account ID --name N --subject S --html FILE [--text FILE] [--preview-text T]',
  '                                         [--from-name N] [--from-address A] [--tag T]... [--all-tags]',
  '       npm run admin -- campaigns update --id ID [--name N] [--subject S] [--html FILE] [--text FILE] [--preview-text T]',
  '                                         [--from-name N] [--from-address A] [--tag T]... [--all-tags]   (draft only)',
  '       npm run admin -- campaigns test --id ID --to EMAIL',
  '       npm run admin -- campaigns approve|return-to-draft|pause|resume|cancel|retry-failed --id ID',
  '       npm run admin -- campaigns send --id ID [--at ISO8601]',
  '       npm run admin -- campaigns recipients --id ID [--outcome sent|failed|skipped|pending] [--after LEDGER_ID] [--limit N]',
  '       npm run admin -- campaigns settings --account ID [--rate N] [--from-name N] [--from-address A]',
  '       npm run admin -- campaigns report --id ID [--format csv]   (a table, or CSV)',
  '',
].join('\n');

const OPTIONS = {
  account: { type: 'string' },
  id: { type: 'string' },
  name: { type: 'string' },
  subject: { type: 'string' },
  html: { type: 'string' },
  text: { type: 'string' },
  'preview-text': { type: 'string' },
  'from-name': { type: 'string' },
  'from-address': { type: 'string' },
  tag: { type: 'string', multiple: true },
  'all-tags': { type: 'boolean' },
  to: { type: 'string' },
  at: { type: 'string' },
  rate: { type: 'string' },
  format: { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;
const CONTENT: OptionName[] = [
  'name',
  'subject',
  'html',
  'text',
  'preview-text',
  'from-name',
  'from-address',
  'tag',
  'all-tags',
];

/**
 * The options each command reads. Any other is refused (exit 2), so neither a typo nor a usage line
 * promising an option the command ignores goes unnoticed. (`recipients` is automation's: the
 * dispatcher, scripts/admin.mjs, sends it there.)
 */
const COMMAND_OPTIONS: Record<string, readonly OptionName[]> = {
  import: ['account'],
  create: ['account', ...CONTENT],
  update: ['id', ...CONTENT],
  test: ['id', 'to'],
  send: ['id', 'at'],
  settings: ['account', 'rate', 'from-name', 'from-address'],
  approve: ['id'],
  'return-to-draft': ['id'],
  pause: ['id'],
  resume: ['id'],
  cancel: ['id'],
  'retry-failed': ['id'],
  report: ['id', 'format'],
};

/** Runs one CLI command and returns the exit code: 0 done, 1 refused or failed, 2 bad usage. */
export async function runAdmin(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [group, command, ...rest] = parsed.positionals;
  const allowed =
    command !== undefined && Object.hasOwn(COMMAND_OPTIONS, command) ? COMMAND_OPTIONS[command] : undefined;
  if (group !== 'campaigns' || command === undefined || allowed === undefined) {
    io.stderr(USAGE);
    return 2;
  }
  const misplaced = Object.keys(parsed.values).find((option) => !allowed.includes(option as OptionName));
  if (misplaced !== undefined) {
    io.stderr(`--${misplaced} does not apply to campaigns ${command}\n${USAGE}`);
    return 2;
  }
  if (command === 'import') return importCommand(rest, parsed.values.account, io);
  if (rest.length > 0) {
    io.stderr(USAGE);
    return 2;
  }
  return campaignCommand(command, parsed.values, io);
}

async function importCommand(rest: string[], account: string | undefined, io: CliIo): Promise<number> {
  const [file, ...extra] = rest;
  if (!file || extra.length > 0 || account === undefined) {
    io.stderr(USAGE);
    return 2;
  }
  if (!/^[1-9][0-9]{0,14}$/.test(account)) {
    io.stderr(`--account must be a positive integer account id, got "${account}"\n${USAGE}`);
    return 2;
  }
  try {
    return await runImport(file, Number(account), io);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AppError) io.stderr(`${error.message}\n`);
    else io.stderr(`import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function campaignCommand(command: string, options: CommandOptions, io: CliIo): Promise<number> {
  try {
    const config = loadCampaignsCliConfig(io.env);
    const database = {
      service: 'campaigns',
      databaseUrl: campaignsDatabaseUrl(config),
      migrationsDir: MIGRATIONS_DIR,
      logLevel: config.LOG_LEVEL,
    };
    // JSON out, but the report: it is read by a person (a table) or a spreadsheet (CSV).
    const output = await withServiceDatabase(database, async (pool) =>
      command === 'report'
        ? runReportCommand(pool, options)
        : `${JSON.stringify(await runCampaignCommand(pool, command, options, io.cwd), null, 2)}\n`,
    );
    io.stdout(output);
    return 0;
  } catch (error) {
    return reportCliFailure(io, error, USAGE, command);
  }
}

if (require.main === module) {
  void runAdmin(process.argv.slice(2), {
    env: process.env,
    cwd: process.env.INIT_CWD ?? process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
