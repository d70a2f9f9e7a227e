// `npm start`: the whole stack on this machine, no Docker. Runs every service (each applies its own
// migrations at start) against the servers the environment names, with one log stream prefixed by
// service name. SIGINT/SIGTERM stops them all gracefully; anything still alive after 10 s is killed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const env = process.env;
const port = (name, fallback) => env[name] ?? String(fallback);

const ports = {
  contacts: port('CONTACTS_PORT', 3010),
  campaigns: port('CAMPAIGNS_PORT', 3020),
  events: port('EVENTS_SERVICE_PORT', 3030),
  automation: port('AUTOMATION_PORT', 3040),
};
const internal = (service) => `http://127.0.0.1:${ports[service]}`;

// One secret for the whole local stack; a random one per run is fine when nobody set it.
const signingSecret = env.INTERNAL_SIGNING_SECRET ?? randomBytes(32).toString('hex');

const services = {
  contacts: { PORT: ports.contacts },
  campaigns: { PORT: ports.campaigns },
  events: { PORT: ports.events },
  automation: { PORT: ports.automation },
  gateway: {
    GATEWAY_PORT: port('GATEWAY_PORT', 3000),
    EVENTS_PORT: port('EVENTS_PORT', 3001),
    CONTACTS_SERVICE_URL: env.CONTACTS_SERVICE_URL ?? internal('contacts'),
    CAMPAIGNS_SERVICE_URL: env.CAMPAIGNS_SERVICE_URL ?? internal('campaigns'),
    EVENTS_SERVICE_URL: env.EVENTS_SERVICE_URL ?? internal('events'),
    AUTOMATION_SERVICE_URL: env.AUTOMATION_SERVICE_URL ?? internal('automation'),
  },
};

const width = Math.max(...Object.keys(services).map((name) => name.length));
const children = new Map();
let stopping = false;

function prefixLines(stream, name, target) {
  const lines = readline.createInterface({ input: stream });
  lines.on('line', (line) => target.write(`${name.padEnd(width)} | ${line}\n`));
}

for (const [name, ownEnv] of Object.entries(services)) {
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', '--require', './dist/instrumentation.js', 'dist/main.js'],
    {
      cwd: path.join(root, 'services', name),
      env: { ...env, INTERNAL_SIGNING_SECRET: signingSecret, ...ownEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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
