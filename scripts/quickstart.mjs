// `npm run admin -- quickstart --email E [--name N] [--first-name F]`: a first account in one command.
// Creates an account on the pro plan, a user (E) with a generated password, an API key and the
// example workflows (examples/workflows), then prints (JSON) the addresses to open and a curl line
// that signs E up, whose welcome email then shows in the inbox. Each step is the ordinary operator CLI.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { localSecrets } from './local-secrets.mjs';

/** Runs one operator command and returns its JSON output; throws with its message on failure. */
function runCli(root, env, service, args) {
  const cli = path.join(root, 'services', service, 'dist', 'cli', 'admin.js');
  const result = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.slice(0, 2).join(' ')} failed: ${(result.stderr || result.stdout || '').trim()}`);
  return JSON.parse(result.stdout);
}

const USAGE = 'npm run admin -- quickstart --email YOUR_ADDRESS [--name COMPANY] [--first-name NAME]';
// The example event signs this address up, and the API refuses an address at a domain that cannot
// receive mail: example.com, .org and .net announce exactly that (a null MX), so no default serves.
const EMAIL_NEEDED =
  'quickstart needs --email: your own address. It is the sign-in of the account, and the example event signs it up, ' +
  'so its domain must receive mail (example.com does not). Without SMTP_URL its emails stay in the local inbox.';

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

export async function quickstart(root, argv) {
  let options;
  try {
    ({ values: options } = parseArgs({
      args: argv,
      options: { name: { type: 'string', default: 'My company' }, email: { type: 'string' }, 'first-name': { type: 'string' } },
      strict: true,
    }));
    if (!options.email) throw new Error(EMAIL_NEEDED);
  } catch (error) {
    process.stderr.write(`${error.message}\nusage: ${USAGE}\n`);
    return 2;
  }
  const env = { ...process.env, ...localSecrets(root, process.env).values };
  const host = (name, fallback) => `http://localhost:${env[name] ?? fallback}`;
  try {
    const account = runCli(root, env, 'gateway', ['accounts', 'create', '--name', options.name, '--plan', 'pro']);
    const password = randomBytes(12).toString('base64url');
    const user = runCli(root, env, 'gateway', ['users', 'create', '--account', String(account.id), '--email', options.email, `--password=${password}`]);
    const key = runCli(root, env, 'gateway', ['keys', 'create', '--account', String(account.id), '--name', 'quickstart']);
    const folder = path.join(root, 'examples', 'workflows');
    const workflows = readdirSync(folder)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .flatMap((file) => runCli(root, env, 'automation', ['workflows', 'import', path.join(folder, file), '--account', String(account.id)]).data)
      .map((workflow) => ({ id: workflow.id, name: workflow.name, trigger: workflow.trigger }));
    const eventsUrl = `${host('EVENTS_PORT', 3001)}/v1/events`;
    const firstName = options['first-name'] ? { first_name: options['first-name'] } : {};
    const event = JSON.stringify({ event: 'signup', email: user.email, properties: { ...firstName, plan: 'trial' } });
    const inbox = env.SMTP_URL ? `the mailbox behind ${env.SMTP_URL}` : `${host('INBOX_PORT', 8025)}/`;
    process.stdout.write(
      `${JSON.stringify(
        {
          account: { id: account.id, name: account.name, plan: account.plan },
          sign_in: { url: `${host('GATEWAY_PORT', 3000)}/app`, email: user.email, password, note: 'shown once: keep it, or reset it with users set-password' },
          api_key: { key: key.key, key_id: key.key_id, note: 'shown once: store it now' },
          workflows,
          urls: { api: `${host('GATEWAY_PORT', 3000)}/api/v1`, api_docs: `${host('GATEWAY_PORT', 3000)}/docs`, events: eventsUrl, inbox },
          try_it: `curl -sS -X POST ${eventsUrl} -H ${shellQuote(`Authorization: Bearer ${key.key}`)} -H 'Content-Type: application/json' -d ${shellQuote(event)}`,
          then: `open ${inbox}: the welcome email to ${user.email} arrives within a second or two`,
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
}
