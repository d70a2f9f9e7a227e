// Every service's Dockerfile comes from the one template below, so a change to the base image or
// the build is one edit: `node scripts/dockerfiles.mjs` writes them all, `--check` (a deploy test
// runs it) fails naming each file that differs from what the template makes.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BASE_IMAGE = 'node:20.20-bookworm-slim';
/** The ports each image exposes, the first answering the health check (the deploy tests read the same file). */
const PORTS = JSON.parse(readFileSync(path.join(root, 'scripts', 'service-ports.json'), 'utf8'));
/** The variable that sets the health-checked port, where it is not PORT. */
const PORT_VARIABLE = { gateway: 'GATEWAY_PORT' };
const nodeFlags = JSON.parse(readFileSync(path.join(root, 'scripts', 'node-flags.json'), 'utf8'));

/** The Dockerfile of one service, as the template makes it. */
export function dockerfileOf(service) {
  const ports = PORTS[service];
  if (!ports) throw new Error(`scripts/service-ports.json names no ports for ${service}`);
  const flags = nodeFlags[service];
  if (!flags) throw new Error(`scripts/node-flags.json names no flags for ${service}`);
  const workspace = `services/${service}`;
  const migrations = existsSync(path.join(root, workspace, 'migrations')) ? [`COPY ${workspace}/migrations ${workspace}/migrations`] : [];
  const command = ['node', ...flags, '--enable-source-maps', '--require', './dist/instrumentation.js', 'dist/main.js'];
  const health = `fetch('http://127.0.0.1:' + (process.env.${PORT_VARIABLE[service] ?? 'PORT'} || ${ports[0]}) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))`;
  return [
    '# syntax=docker/dockerfile:1',
    '# Made by scripts/dockerfiles.mjs from its one template: edit the template, not this file.',
    '# Build context: the repository root (docker compose sets it). Two stages: compile with every',
    '# dependency, then run with production dependencies only, as the unprivileged `node` user. The',
    "# image holds this workspace and packages/shared only (npm ci installs from the lock file without",
    "# the other workspaces' manifests).",
    `FROM ${BASE_IMAGE} AS build`,
    'WORKDIR /app',
    'COPY package.json package-lock.json tsconfig.base.json ./',
    'COPY packages/shared/package.json packages/shared/',
    `COPY ${workspace}/package.json ${workspace}/`,
    'RUN npm ci --no-audit --no-fund --ignore-scripts',
    'COPY packages/shared packages/shared',
    `COPY ${workspace} ${workspace}`,
    `RUN npx tsc -b ${workspace}`,
    '',
    `FROM ${BASE_IMAGE} AS runtime`,
    'ENV NODE_ENV=production',
    'WORKDIR /app',
    'COPY package.json package-lock.json ./',
    'COPY packages/shared/package.json packages/shared/',
    `COPY ${workspace}/package.json ${workspace}/`,
    `RUN npm ci --no-audit --no-fund --omit=dev --ignore-scripts --workspace packages/shared --workspace ${workspace} \\`,
    '  && npm cache clean --force',
    'COPY --from=build /app/packages/shared/dist packages/shared/dist',
    `COPY --from=build /app/${workspace}/dist ${workspace}/dist`,
    ...migrations,
    'USER node',
    `WORKDIR /app/${workspace}`,
    `EXPOSE ${ports.join(' ')}`,
    'HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \\',
    `  CMD ${JSON.stringify(['node', '-e', health]).replace(/","/g, '", "')}`,
    '# The V8 flags are scripts/node-flags.json\'s (npm start and the benchmark read the same).',
    `CMD ${JSON.stringify(command).replace(/","/g, '", "')}`,
    '',
  ].join('\n');
}

/** Every folder under services/: each is a service with an image of its own. */
export const services = () => readdirSync(path.join(root, 'services')).filter((name) => existsSync(path.join(root, 'services', name, 'package.json')));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const service of services()) {
    const file = path.join(root, 'services', service, 'Dockerfile');
    const wanted = dockerfileOf(service);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (current === wanted) continue;
    if (check) stale.push(path.relative(root, file));
    else writeFileSync(file, wanted);
  }
  if (stale.length > 0) {
    process.stderr.write(`not what scripts/dockerfiles.mjs makes (run it to rewrite them): ${stale.join(', ')}\n`);
    process.exit(1);
  }
}
