import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { arrayAt, isObject, objectAt, stringAt, valueAt, type JsonObject } from './json-shapes';
import { SERVICES, SERVICE_PORTS, UPSTREAM_URLS, foreignEnv, missingEnv, type Service } from './service-contract';

const SERVERS = ['postgres', 'redis', 'rabbitmq'] as const;

/** docker-compose.yml parsed as Compose reads it: anchors, aliases and `<<` merge keys resolved. */
export function loadCompose(file: string): JsonObject {
  const body: unknown = parse(readFileSync(file, 'utf8'), { merge: true });
  if (!isObject(body)) throw new Error(`${file} is not a mapping`);
  return body;
}

/** `environment` as a map, whether written as a mapping or as a `KEY=value` list. */
function environmentOf(service: JsonObject): Map<string, string> {
  const environment = valueAt(service, 'environment');
  if (Array.isArray(environment)) {
    return new Map(
      environment.map(String).map((entry) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]),
    );
  }
  return new Map(
    Object.entries(isObject(environment) ? environment : {}).map(([key, value]) => [key, String(value)]),
  );
}

function serviceProblems(compose: JsonObject, service: Service, rootDir: string): string[] {
  const definition = objectAt(compose, 'services', service);
  if (!definition) return [`compose: no service ${service}`];
  const problems: string[] = [];
  const context = stringAt(definition, 'build', 'context') ?? '.';
  const dockerfile = stringAt(definition, 'build', 'dockerfile');
  if (!dockerfile) problems.push(`compose ${service}: no build.dockerfile`);
  else {
    const file = path.resolve(rootDir, context, dockerfile);
    if (!existsSync(file)) problems.push(`compose ${service}: ${dockerfile} does not exist`);
    else
      problems.push(
        ...dockerfileProblems(`${service} Dockerfile`, readFileSync(file, 'utf8'), SERVICE_PORTS[service]),
        ...imageContentProblems(service, readFileSync(file, 'utf8')),
      );
  }
  if (arrayAt(definition, 'healthcheck', 'test').length === 0)
    problems.push(`compose ${service}: no healthcheck`);
  for (const server of SERVERS) {
    if (stringAt(definition, 'depends_on', server, 'condition') !== 'service_healthy') {
      problems.push(`compose ${service}: does not wait for ${server} to be healthy`);
    }
  }
  const environment = environmentOf(definition);
  for (const missing of missingEnv(service, new Set(environment.keys())))
    problems.push(`compose ${service}: does not set ${missing}`);
  for (const name of foreignEnv(service, new Set(environment.keys())))
    problems.push(`compose ${service}: sets ${name}, which is another service's`);
  const portVariables = service === 'gateway' ? ['GATEWAY_PORT', 'EVENTS_PORT'] : ['PORT'];
  portVariables.forEach((variable, index) => {
    const expected = String(SERVICE_PORTS[service][index]);
    if (environment.has(variable) && environment.get(variable) !== expected) {
      problems.push(`compose ${service}: ${variable} is ${environment.get(variable)}, expected ${expected}`);
    }
  });
  if (service === 'gateway') {
    for (const [variable, upstream] of Object.entries(UPSTREAM_URLS)) {
      const expected = `http://${upstream}:${SERVICE_PORTS[upstream][0]}`;
      if (environment.has(variable) && environment.get(variable) !== expected) {
        problems.push(`compose gateway: ${variable} is ${environment.get(variable)}, expected ${expected}`);
      }
      if (stringAt(definition, 'depends_on', upstream, 'condition') !== 'service_healthy') {
        problems.push(`compose gateway: does not wait for ${upstream} to be healthy`);
      }
    }
  }
  return problems;
}

/** Every problem of the compose file's services (and of their Dockerfiles). */
export function composeProblems(compose: JsonObject, rootDir: string): string[] {
  const problems = SERVICES.flatMap((service) => serviceProblems(compose, service, rootDir));
  for (const server of SERVERS) {
    if (arrayAt(compose, 'services', server, 'healthcheck', 'test').length === 0)
      problems.push(`compose: ${server} has no healthcheck to wait for`);
  }
  return problems;
}

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, with `\` continuations joined and comments dropped. */
function instructions(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/**
 * A service image: built in stages (compilers stay out of the runtime), installs runtime
 * dependencies only, ends as an unprivileged user, exposes the service's port, has a healthcheck.
 */
export function dockerfileProblems(where: string, text: string, ports: readonly number[]): string[] {
  const all = instructions(text);
  const problems: string[] = [];
  const stageStarts = all.flatMap((instruction, index) => (instruction.keyword === 'FROM' ? [index] : []));
  if (stageStarts.length < 2) problems.push(`${where}: not multi-stage (${stageStarts.length} FROM)`);
  const finalStage = all.slice(stageStarts.at(-1) ?? 0);
  const user = finalStage
    .filter((instruction) => instruction.keyword === 'USER')
    .at(-1)
    ?.args.split(':')[0];
  if (!user) problems.push(`${where}: the final stage runs as root (no USER)`);
  else if (user === 'root' || user === '0') problems.push(`${where}: the final stage runs as ${user}`);
  const installs = finalStage.filter(
    (instruction) => instruction.keyword === 'RUN' && /\bnpm (ci|install)\b/.test(instruction.args),
  );
  if (installs.length === 0) problems.push(`${where}: the final stage installs no dependencies`);
  for (const install of installs) {
    if (!install.args.includes('--omit=dev'))
      problems.push(`${where}: the final stage installs without --omit=dev`);
  }
  const exposed = finalStage
    .filter((instruction) => instruction.keyword === 'EXPOSE')
    .flatMap((instruction) => instruction.args.split(/\s+/));
  for (const port of ports)
    if (!exposed.includes(String(port))) problems.push(`${where}: does not EXPOSE ${port}`);
  if (!finalStage.some((instruction) => instruction.keyword === 'HEALTHCHECK'))
    problems.push(`${where}: no HEALTHCHECK`);
  return problems;
}

/**
 * Each service deploys alone: its image holds its own workspace and packages/shared, and of the
 * other workspaces only their package.json (npm ci reads every workspace the lock file names).
 */
export function imageContentProblems(service: string, text: string): string[] {
  return instructions(text)
    .filter((instruction) => instruction.keyword === 'COPY')
    .flatMap((instruction) => {
      const sources = instruction.args.split(/\s+/).filter((arg) => !arg.startsWith('--')).slice(0, -1);
      return sources.flatMap((source) => {
        const other = /(?:^|\/)services\/([^/]+)(\/.*)?$/.exec(source);
        if (!other || other[1] === service || other[2] === '/package.json') return [];
        return [`${service} Dockerfile: copies ${source}, another service's code, into the image`];
      });
    });
}
