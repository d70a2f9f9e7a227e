import { readFile } from 'node:fs/promises';
import { parseArgs as parseOptions } from 'node:util';
import { AppError, CommonErrorCodes, type Pool } from '@mailer/shared';
import { deliveryHistory } from '../data-access/delivery-log.repository';
import { listWorkflows } from '../data-access/workflows.repository';
import { importWorkflows } from '../domain/workflows/import-workflows';
import type { WorkflowWrites } from '../domain/workflows/workflow-writes';
import { listRecipientsPage } from '../domain/campaigns/list-campaign-recipients';
import { campaignAccount } from '../data-access/campaign-deliveries.repository';

export class UsageError extends Error {}

export const USAGE = [
  'usage: workflows import FILE --account ID',
  '       workflows list --account ID',
  '       workflows log --account ID (--email EMAIL | --contact ID)',
  '       campaigns recipients --id ID [--outcome sent|failed|skipped|pending] [--after LEDGER_ID] [--limit N]',
].join('\n');

export interface ParsedArgs {
  command: string;
  positional: string[];
  options: Map<string, string>;
}

/**
 * The options each command reads. Any other is refused (exit 2), so neither a typo nor a usage line
 * promising an option the command ignores goes unnoticed.
 */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  'workflows import': ['account'],
  'workflows list': ['account'],
  'workflows log': ['account', 'email', 'contact'],
  'campaigns recipients': ['id', 'outcome', 'after', 'limit'],
};

export function parseArgs(argv: string[]): ParsedArgs {
  const [group, command, ...rest] = argv;
  const name = `${group ?? ''} ${command ?? ''}`;
  const known = Object.hasOwn(COMMAND_OPTIONS, name) ? COMMAND_OPTIONS[name] : undefined;
  if (!known || !command) throw new UsageError(USAGE);
  let parsed;
  try {
    parsed = parseOptions({
      args: rest,
      options: Object.fromEntries(known.map((option) => [option, { type: 'string' as const }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  // Only import names a file; a stray word elsewhere is a mistyped option.
  const positional = parsed.positionals;
  if (positional.length > (command === 'import' ? 1 : 0)) throw new UsageError(`unexpected argument "${positional.at(-1) ?? ''}"\n${USAGE}`);
  const options = new Map(Object.entries(parsed.values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return { command, positional, options };
}

function positiveId(args: ParsedArgs, name: string): number {
  const raw = args.options.get(name);
  if (raw === undefined || !/^[1-9]\d{0,14}$/.test(raw)) throw new UsageError(`--${name} must be a positive integer\n${USAGE}`);
  return Number(raw);
}

async function readWorkflowFile(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch((error: Error) => {
    throw new UsageError(`cannot read ${file}: ${error.message}`);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** What the commands use; the writes connect to the broker, so only a command that writes asks for them. */
export interface CommandDeps {
  pool: Pool;
  workflowWrites: () => Promise<WorkflowWrites>;
}

/** Runs one command; resolves to what is printed as JSON on stdout. */
export async function runCommand({ pool, workflowWrites }: CommandDeps, args: ParsedArgs): Promise<unknown> {
  if (args.command === 'recipients') return recipients(pool, args);
  const accountId = positiveId(args, 'account');
  switch (args.command) {
    case 'import': {
      const [file] = args.positional;
      if (!file) throw new UsageError(USAGE);
      const document = await readWorkflowFile(file);
      return { data: await importWorkflows(await workflowWrites(), accountId, document) };
    }
    case 'list': {
      const workflows = await listWorkflows(pool, accountId);
      return { data: workflows.map((w) => ({ id: w.id, name: w.name, trigger: w.definition.trigger, transactional: w.transactional, steps: w.definition.steps.length, updated_at: w.updated_at })) };
    }
    case 'log': {
      const email = args.options.get('email');
      const contact = args.options.has('contact') ? positiveId(args, 'contact') : undefined;
      if (!email && contact === undefined) throw new UsageError(`log needs --email or --contact\n${USAGE}`);
      return { data: await deliveryHistory(pool, accountId, { id: contact, email }) };
    }
    default:
      throw new UsageError(USAGE);
  }
}

/** `campaigns recipients`: the per-recipient outcomes live in automation's campaign ledger. */
async function recipients(pool: Pool, args: ParsedArgs): Promise<unknown> {
  const campaignId = positiveId(args, 'id');
  const accountId = await campaignAccount(pool, campaignId);
  // Not a usage mistake: the campaign may exist but not have reached automation yet (exit 1, not 2).
  if (accountId === undefined) throw new AppError(CommonErrorCodes.NOT_FOUND, `campaign ${campaignId} has not started sending: no recipients yet`);
  return listRecipientsPage(pool, {
    accountId,
    campaignId,
    outcome: args.options.get('outcome'),
    after: args.options.has('after') ? positiveId(args, 'after') : undefined,
    limit: args.options.has('limit') ? positiveId(args, 'limit') : undefined,
  });
}
