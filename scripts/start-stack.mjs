// `npm start`: the whole stack on this machine, no Docker. Runs every service (each applies its own
// migrations at start) against the servers the environment names, with one log stream prefixed by
// service name. Secrets the environment does not set come from a local state file (made once);
// with no SMTP_URL, a local inbox captures every email and shows it in a browser.
// SIGINT/SIGTERM stops them all gracefully; anything still alive after 10 s is killed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { prettyFactory } from 'pino-pretty';
import { localSecrets, stateFile } from './local-secrets.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const env = process.env;
const port = (name, fallback) => env[name] ?? String(fallback);

const ports = {
  gateway: port('GATEWAY_PORT', 3000),
  events: port('EVENTS_PORT', 3001),
  contacts: port('CONTACTS_PORT', 3010),
  campaigns: port('CAMPAIGNS_PORT', 3020),
  eventsService: port('EVENTS_SERVICE_PORT', 3030),
  automation: port('AUTOMATION_PORT', 3040),
  web: port('WEB_PORT', 3050),
  webhooks: port('WEBHOOKS_PORT', 3060),
  gatewayInternal: port('GATEWAY_INTERNAL_PORT', 3002),
  inboxSmtp: port('INBOX_SMTP_PORT', 1025),
  inbox: port('INBOX_PORT', 8025),
};
const internal = (service) => `http://127.0.0.1:${ports[service]}`;
const publicBaseUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${ports.gateway}`;

const secrets = localSecrets(root, env);
const localInbox = !env.SMTP_URL;

const node = (script) => ['--enable-source-maps', '--require', './dist/instrumentation.js', script];
// Each service's V8 flags, the same for its image's CMD (a deploy test holds them together) and the
// benchmark: docs/adr/ says why each flag is there.
const nodeFlags = JSON.parse(readFileSync(path.join(root, 'scripts/node-flags.json'), 'utf8'));
const withFlags = (service) => [...nodeFlags[service], ...node('dist/main.js')];
const services = {
  contacts: { dir: 'services/contacts', args: withFlags('contacts'), env: { PORT: ports.contacts } },
  campaigns: { dir: 'services/campaigns', args: withFlags('campaigns'), env: { PORT: ports.campaigns } },
  webhooks: { dir: 'services/webhooks', args: withFlags('webhooks'), env: { PORT: ports.webhooks } },
  events: { dir: 'services/events', args: withFlags('events'), env: { PORT: ports.eventsService } },
  automation: {
    dir: 'services/automation',
    args: withFlags('automation'),
    env: {
      PORT: ports.automation,
      PUBLIC_BASE_URL: publicBaseUrl,
      CONTACTS_SERVICE_URL: env.CONTACTS_SERVICE_URL ?? internal('contacts'),
      ...(localInbox ? { SMTP_URL: `smtp://127.0.0.1:${ports.inboxSmtp}` } : {}),
    },
  },
  web: {
    dir: 'services/web',
    args: withFlags('web'),
    env: {
      PORT: ports.web,
      GATEWAY_INTERNAL_URL: internal('gatewayInternal'),
      CONTACTS_SERVICE_URL: env.CONTACTS_SERVICE_URL ?? internal('contacts'),
      CAMPAIGNS_SERVICE_URL: env.CAMPAIGNS_SERVICE_URL ?? internal('campaigns'),
      AUTOMATION_SERVICE_URL: env.AUTOMATION_SERVICE_URL ?? internal('automation'),
      WEBHOOKS_SERVICE_URL: env.WEBHOOKS_SERVICE_URL ?? internal('webhooks'),
    },
  },
  gateway: {
    dir: 'services/gateway',
    args: withFlags('gateway'),
    env: {
      GATEWAY_PORT: ports.gateway,
      EVENTS_PORT: ports.events,
      CONTACTS_SERVICE_URL: env.CONTACTS_SERVICE_URL ?? internal('contacts'),
      CAMPAIGNS_SERVICE_URL: env.CAMPAIGNS_SERVICE_URL ?? internal('campaigns'),
      EVENTS_SERVICE_URL: env.EVENTS_SERVICE_URL ?? internal('eventsService'),
      AUTOMATION_SERVICE_URL: env.AUTOMATION_SERVICE_URL ?? internal('automation'),
      WEB_SERVICE_URL: env.WEB_SERVICE_URL ?? internal('web'),
      WEBHOOKS_SERVICE_URL: env.WEBHOOKS_SERVICE_URL ?? internal('webhooks'),
      GATEWAY_INTERNAL_PORT: ports.gatewayInternal,
    },
  },
  ...(localInbox
    ? {
        inbox: {
          dir: 'tools/local-inbox',
          args: ['--enable-source-maps', 'dist/main.js'],
          env: { INBOX_SMTP_PORT: ports.inboxSmtp, INBOX_PORT: ports.inbox, INBOX_DIR: path.join(path.dirname(stateFile(root, env)), 'inbox') },
        },
      }
    : {}),
};

const width = Math.max(...Object.keys(services).map((name) => name.length));
const say = (line) => process.stdout.write(`${'stack'.padEnd(width)} | ${line}\n`);

say(`API        http://localhost:${ports.gateway}/api/v1   (docs: http://localhost:${ports.gateway}/docs)`);
say(`events     http://localhost:${ports.events}/v1/events`);
say(`app        http://localhost:${ports.gateway}/app   (sign in with a user of \`npm run admin -- users create\`)`);
say(localInbox ? `inbox      http://localhost:${ports.inbox}/   (no SMTP_URL set: every email is captured here)` : `SMTP       ${env.SMTP_URL.replace(/\/\/[^@/]*@/, '//***@')}`);
if (secrets.file) say(`secrets    ${secrets.file}${secrets.created.length ? ' (generated now: ' + secrets.created.join(', ') + ')' : ''}`);

const children = new Map();
let stopping = false;

// A person at a terminal reads one line per log record (time, level, message, fields); a pipe or a
// file (LOG_FORMAT=json, or not a terminal) gets the services' JSON lines untouched.
const pretty =
  (env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty'
    ? prettyFactory({ colorize: process.stdout.isTTY, singleLine: true, ignore: 'pid,hostname,service,listening,connects', translateTime: 'SYS:HH:MM:ss' })
    : undefined;

function readable(line) {
  if (!pretty || !line.startsWith('{')) return `${line}\n`;
  try {
    return pretty(line);
  } catch {
    return `${line}\n`;
  }
}

function prefixLines(stream, name, target) {
  const lines = readline.createInterface({ input: stream });
  lines.on('line', (line) => target.write(`${name.padEnd(width)} | ${readable(line)}`));
}

for (const [name, service] of Object.entries(services)) {
  const child = spawn(process.execPath, service.args, {
    cwd: path.join(root, service.dir),
    env: { ...env, ...secrets.values, ...service.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prefixLines(child.stdout, name, process.stdout);
  prefixLines(child.stderr, name, process.stderr);
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      process.stderr.write(`${name.padEnd(width)} | exited (${signal ?? code}); stopping the stack\n`);
      stopAll(1);
    } else if (children.size === 0) {
      process.exit(process.exitCode ?? 0);
    }
  });
}

function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  process.exitCode = exitCode;
  for (const child of children.values()) child.kill('SIGTERM');
  if (children.size === 0) process.exit(exitCode);
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(exitCode || 1);
  }, 10_000).unref();
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
