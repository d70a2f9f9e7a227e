// The webhooks part of `npm run admin` (scripts/admin.mjs): manage an account's endpoints and read
// their delivery logs. Works on the database alone; the running service delivers what it queues.
import { parseArgs } from 'node:util';
import { reportCliFailure, runCliMain, withServiceDatabase, type CliIo } from '@mailer/shared';
import { loadWebhooksCliConfig } from '../config';
import { MIGRATIONS_DIR, webhooksDatabaseUrl } from '../database';
import { WebhookHttp } from '../data-access/webhook-http';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-events';
import { runWebhookCommand } from './webhook-commands';

const USAGE = `usage: npm run admin -- webhooks <command> [options]
  create --account ID --url URL --events TYPE[,TYPE...] [--description D] [--disable]   (prints the secret once)
  list --account ID
  update --id ID [--url URL] [--events TYPE,...] [--description D] [--enable|--disable]
  rotate-secret --id ID            (new secret printed once; the old one signs too for WEBHOOK_SECRET_OVERLAP_MS)
  delete --id ID
  deliveries --id ID [--limit N]   (newest first, every attempt with status, latency and answer excerpt)
  resend --id ID --delivery ID
event types: ${WEBHOOK_EVENT_TYPES.join(', ')}
`;

const OPTIONS = {
  account: { type: 'string' },
  id: { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  description: { type: 'string' },
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
  delivery: { type: 'string' },
  limit: { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;

/**
 * The options each command reads. Any other is refused (exit 2), so neither a typo nor a usage line
 * promising an option the command ignores goes unnoticed.
 */
const COMMAND_OPTIONS: Record<string, readonly OptionName[]> = {
  create: ['account', 'url', 'events', 'description', 'disable'],
  list: ['account'],
  update: ['id', 'url', 'events', 'description', 'enable', 'disable'],
  'rotate-secret': ['id'],
  delete: ['id'],
  deliveries: ['id', 'limit'],
  resend: ['id', 'delivery'],
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
  if (group !== 'webhooks' || command === undefined || allowed === undefined || rest.length > 0) {
    io.stderr(USAGE);
    return 2;
  }
  const misplaced = Object.keys(parsed.values).find((option) => !allowed.includes(option as OptionName));
  if (misplaced !== undefined) {
    io.stderr(`--${misplaced} does not apply to webhooks ${command}\n${USAGE}`);
    return 2;
  }
  let http: WebhookHttp | undefined;
  try {
    const config = loadWebhooksCliConfig(io.env);
    const database = {
      service: 'webhooks',
      databaseUrl: webhooksDatabaseUrl(config),
      migrationsDir: MIGRATIONS_DIR,
      logLevel: config.LOG_LEVEL,
    };
    const result = await withServiceDatabase(database, async (pool) => {
      const checker = new WebhookHttp({
        policy: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, allowedHosts: config.WEBHOOK_ALLOWED_HOSTS },
        timeoutMs: 5000,
        responseLimitBytes: 1024,
      });
      http = checker;
      return runWebhookCommand(
        { pool, refusal: (url) => checker.refusal(url), secretOverlapMs: config.WEBHOOK_SECRET_OVERLAP_MS },
        command,
        parsed.values,
      );
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    return reportCliFailure(io, error, USAGE, command);
  } finally {
    await http?.close();
  }
}

if (require.main === module) runCliMain(runAdmin);
