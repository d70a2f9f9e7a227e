import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultZones, freePort, startDnsTestServer } from '@mailer/testing';
import { startArrivalSink, type ArrivalSink } from './arrival-sink';
import type { BenchConfig } from './bench-config';
import type { Cleanup } from './cleanup';
import { probeDirectory, type ProbeDirectory } from './disk-flush-probe';
import {
  deleteRunRedisKeys,
  dropRunDatabases,
  removeRunBrokerTopology,
  runNames,
  type RunNames,
} from './run-resources';
import { startServiceProcess, type ServiceProcess } from './service-process';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Every address the benchmark makes up is on this domain; the DNS test server answers its MX. */
export const BENCH_DOMAIN = 'bench.test';
/** Far above anything a run sends, so the limiter runs its script on every request but never refuses. */
const UNREACHABLE_LIMIT = '1000000000';

export interface Stack {
  names: RunNames;
  /** The env every service and operator CLI of this run gets. */
  env: NodeJS.ProcessEnv;
  sink: ArrivalSink;
  /** Where the latency windows time the disk's flushes (`withDiskProbe`). */
  diskProbe: ProbeDirectory;
  apiUrl: string;
  eventsUrl: string;
  /** Each backend's own URL (behind the gateway), for diagnosing a hop on its own. */
  internalUrls: Record<string, string>;
  services: ServiceProcess[];
}

/** Each service's V8 flags, as `npm start` and the images run it (scripts/node-flags.json). */
const NODE_FLAGS = JSON.parse(readFileSync(path.join(REPO_ROOT, 'scripts', 'node-flags.json'), 'utf8')) as Record<string, string[]>;
const nodeArgsOf = (name: string) => {
  const flags = NODE_FLAGS[name];
  if (!flags) throw new Error(`scripts/node-flags.json names no flags for ${name}`);
  return flags;
};
const serviceScript = (name: string) => path.join(REPO_ROOT, 'services', name, 'dist', 'main.js');
/** What `--instances N` multiplies: the request and sending path. Campaigns, webhooks stay single. */
const SCALED_SERVICES = new Set(['gateway', 'contacts', 'events', 'automation']);

/**
 * The whole stack from the built services, as child processes on free ports, on databases, Redis
 * keys and a broker namespace of this run only; everything is registered with `cleanup` before it
 * is created.
 */
export async function startStack(config: BenchConfig, cleanup: Cleanup): Promise<Stack> {
  const names = runNames(randomBytes(4).toString('hex'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    POSTGRES_URL: config.postgresUrl,
    REDIS_URL: config.redisUrl,
    AMQP_URL: config.amqpUrl,
    DB_PREFIX: names.dbPrefix,
    REDIS_KEY_PREFIX: names.redisKeyPrefix,
    BROKER_NAMESPACE: names.brokerNamespace,
    INTERNAL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    // The dead webhook endpoint (issue #22's scenario) listens on loopback: the webhooks service and
    // its CLI allow that one address in this run.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  delete env.DATABASE_URL;
  delete env.PORT;
  cleanup.add('databases', () => dropRunDatabases(config.postgresUrl, names.dbPrefix));
  cleanup.add('broker namespace', () => removeRunBrokerTopology(config.amqpUrl, names.brokerNamespace));
  cleanup.add('redis keys', () => deleteRunRedisKeys(config.redisUrl, names.redisKeyPrefix));

  const sink = await startArrivalSink();
  cleanup.add('smtp sink', () => sink.close());
  const diskProbe = await probeDirectory(config.postgresUrl);
  cleanup.add('disk probe folder', () => diskProbe.remove());
  const dns = await startDnsTestServer({
    ...defaultZones,
    [BENCH_DOMAIN]: { mx: [`mail.${BENCH_DOMAIN}`], a: ['127.0.0.1'] },
  });
  cleanup.add('dns server', () => dns.close());

  const [contactsPort, campaignsPort, eventsPort, automationPort, webhooksPort, gatewayPort, gatewayEventsPort, gatewayInternalPort] =
    await Promise.all(Array.from({ length: 8 }, () => freePort()));
  const local = (port: number | undefined) => `http://127.0.0.1:${port}`;
  const apiUrl = local(gatewayPort);
  // Automation's: the one service that talks to the mail server.
  const sending: NodeJS.ProcessEnv = {
    SMTP_URL: sink.url,
    SMTP_POOL_SIZE: String(config.smtpPoolSize),
    SEND_RATE_PER_SECOND: '100000',
    // Workflow and campaign sends in flight: the service's default (four per SMTP connection) unless set.
    ...(config.sendConcurrency === undefined ? {} : { SEND_CONCURRENCY: String(config.sendConcurrency) }),
    PUBLIC_BASE_URL: apiUrl,
  };
  const backends: Array<[string, NodeJS.ProcessEnv, number]> = [
    ['contacts', { PORT: String(contactsPort), DNS_SERVERS: dns.address }, contactsPort!],
    ['campaigns', { PORT: String(campaignsPort) }, campaignsPort!],
    // Events give an address the same domain verdict as contacts: the same loopback DNS server.
    ['events', { PORT: String(eventsPort), DNS_SERVERS: dns.address }, eventsPort!],
    ['automation', { PORT: String(automationPort), ...sending }, automationPort!],
    // It consumes the facts every send publishes: without it their queue fills and the broker never quiets.
    ['webhooks', { PORT: String(webhooksPort) }, webhooksPort!],
  ];
  const services: ServiceProcess[] = [];
  const start = async (name: string, own: NodeJS.ProcessEnv, readyPort: number) => {
    const scaled = config.instances > 1 && SCALED_SERVICES.has(name);
    const service = await startServiceProcess(
      name,
      scaled ? path.join(__dirname, 'service-instances.js') : serviceScript(name),
      { ...env, ...own, ...(scaled ? { INSTANCES_SCRIPT: serviceScript(name), INSTANCES_COUNT: String(config.instances) } : {}) },
      `${local(readyPort)}/readyz`,
      nodeArgsOf(name),
      scaled ? config.instances : 1,
    );
    cleanup.add(name, () => service.stop());
    services.push(service);
  };
  // Backends first (each migrates its own database), then the gateway that proxies to them.
  // allSettled: every backend that did start is registered for cleanup before a failure is thrown.
  const started = await Promise.allSettled(backends.map(([name, own, port]) => start(name, own, port)));
  const failure = started.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  await start(
    'gateway',
    {
      GATEWAY_PORT: String(gatewayPort),
      EVENTS_PORT: String(gatewayEventsPort),
      GATEWAY_INTERNAL_PORT: String(gatewayInternalPort),
      CONTACTS_SERVICE_URL: local(contactsPort),
      CAMPAIGNS_SERVICE_URL: local(campaignsPort),
      EVENTS_SERVICE_URL: local(eventsPort),
      AUTOMATION_SERVICE_URL: local(automationPort),
      RATE_LIMIT_KEY_PER_MIN: UNREACHABLE_LIMIT,
      RATE_LIMIT_KEY_PER_HOUR: UNREACHABLE_LIMIT,
      RATE_LIMIT_IP_PER_MIN: UNREACHABLE_LIMIT,
      // The load comes from one address standing for many clients: an open loop at half load keeps
      // more requests in flight than one real client may (the cap still runs, far away).
      MAX_CONNECTIONS_PER_ADDRESS: UNREACHABLE_LIMIT,
    },
    gatewayPort!,
  );
  const internalUrls = Object.fromEntries(backends.map(([name, , port]) => [name, local(port)]));
  return { names, env, sink, diskProbe, apiUrl, eventsUrl: local(gatewayEventsPort), internalUrls, services };
}
