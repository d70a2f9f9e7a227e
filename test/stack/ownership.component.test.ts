import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startDnsTestServer, testServers, type DnsTestServer, rememberNamespace } from '@mailer/testing';
import { processesMarked } from './process-tools';
import { connectionsByService } from './socket-owners';
import { freePorts, healthUrls, INBOX_PORT_VARIABLES, root, SERVICE_PORT_VARIABLES, startStackProcess, waitHealthy, type StackProcess } from './stack-process';

const run = promisify(execFile);

/** What was seen connected while the stack served traffic. */
interface Observed {
  /** Database name -> the services seen connected to it. */
  databases: Map<string, Set<string>>;
  smtpClients: Set<string>;
  brokerClients: Set<string>;
}

const portOf = (url: string, fallback: number) => Number(new URL(url).port || fallback);
const add = <K, V>(map: Map<K, Set<V>>, key: K, value: V) => map.set(key, (map.get(key) ?? new Set()).add(value));

/**
 * The shape on a running `npm start` stack, read from the operating system rather than from the
 * code: while contacts are read and created and events that send are posted, whose process holds
 * each connection to each database, to the mail server and to the broker.
 */
describe('npm start: each service connects only to what it owns', () => {
  let dns: DnsTestServer;
  let stateDir: string;
  let stack: StackProcess | undefined;
  let postgres: pg.Client;

  beforeAll(async () => {
    dns = await startDnsTestServer({ 'example.com': { mx: ['mail.example.com'], a: ['127.0.0.1'] } });
    stateDir = mkdtempSync(path.join(tmpdir(), 'mailer-ownership-'));
    postgres = new pg.Client({ connectionString: testServers().postgresUrl });
    await postgres.connect();
  });
  afterAll(async () => {
    await stack?.stop();
    await postgres?.end();
    await dns?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('has every database connection come from its owner, only automation on SMTP, and the events service on the broker', async () => {
    const servers = testServers();
    const marker = randomBytes(6).toString('hex');
    const { SMTP_URL: _smtp, ...inherited } = process.env;
    const dbPrefix = `${servers.dbPrefix}own${marker.slice(0, 4)}_`;
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      ...(await freePorts([...SERVICE_PORT_VARIABLES, ...INBOX_PORT_VARIABLES])),
      POSTGRES_URL: servers.postgresUrl,
      DB_PREFIX: dbPrefix,
      REDIS_URL: servers.redisUrl,
      REDIS_KEY_PREFIX: `${servers.redisKeyPrefix}own${marker}:`,
      AMQP_URL: servers.amqpUrl,
      BROKER_NAMESPACE: rememberNamespace(`own${marker}.`),
      DNS_SERVERS: dns.address,
      MAILER_STATE_DIR: stateDir,
      MAILER_STACK_RUN: marker,
      LOG_LEVEL: 'warn',
    };
    stack = startStackProcess(env);
    await waitHealthy(healthUrls(env as Record<string, string>, [...SERVICE_PORT_VARIABLES, ...INBOX_PORT_VARIABLES]), 45_000, stack);
    const { stdout } = await run(process.execPath, [path.join(root, 'scripts', 'admin.mjs'), 'quickstart', '--email', 'owner@example.com'], { env });
    const key = (JSON.parse(stdout) as { api_key: { key: string } }).api_key.key;
    const api = `http://127.0.0.1:${env.GATEWAY_PORT}/api/v1`;
    const events = `http://127.0.0.1:${env.EVENTS_PORT}/v1/events`;
    const call = (url: string, method: string, body?: unknown) =>
      fetch(url, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const observed: Observed = { databases: new Map(), smtpClients: new Set(), brokerClients: new Set() };
    const ports = { postgres: portOf(servers.postgresUrl, 5432), amqp: portOf(servers.amqpUrl, 5672), smtp: Number(env.INBOX_SMTP_PORT) };
    const look = async () => {
      const pids = processesMarked('MAILER_STACK_RUN', marker);
      const { rows } = await postgres.query<{ datname: string; client_port: number }>(
        'SELECT datname, client_port FROM pg_stat_activity WHERE starts_with(datname, $1) AND client_port IS NOT NULL',
        [dbPrefix],
      );
      const databaseOfPort = new Map(rows.map((row) => [row.client_port, row.datname]));
      for (const [service, connections] of connectionsByService(pids)) {
        for (const { localPort, remotePort } of connections) {
          const database = remotePort === ports.postgres ? databaseOfPort.get(localPort) : undefined;
          if (database !== undefined) add(observed.databases, database.slice(dbPrefix.length), service);
          if (remotePort === ports.smtp) observed.smtpClients.add(service);
          if (remotePort === ports.amqp) observed.brokerClients.add(service);
        }
      }
    };

    const answers: number[] = [];
    for (let round = 0; round < 40; round += 1) {
      const traffic = [
        call(`${api}/contacts`, 'POST', { email: `made-${round}@example.com` }),
        call(`${api}/contacts?per_page=5`, 'GET'),
        call(events, 'POST', { event: 'signup', email: `signed-${round}@example.com`, properties: { first_name: 'Ada' } }),
      ];
      const [responses] = await Promise.all([Promise.all(traffic), look()]);
      answers.push(...responses.map((response) => response.status));
    }
    await look();

    expect(new Set(answers)).toEqual(new Set([200, 201, 202]));
    const owners = Object.fromEntries([...observed.databases].map(([database, services]) => [database, [...services].sort()]));
    expect(owners).toEqual(Object.fromEntries(Object.keys(owners).map((database) => [database, [database]])));
    expect(Object.keys(owners)).toEqual(expect.arrayContaining(['gateway', 'contacts', 'automation']));
    expect([...observed.smtpClients]).toEqual(['automation']);
    expect(observed.brokerClients.has('events')).toBe(true);
    expect(observed.brokerClients.has('gateway')).toBe(false);
    expect(observed.brokerClients.has('web')).toBe(false);
  }, 120_000);
});
