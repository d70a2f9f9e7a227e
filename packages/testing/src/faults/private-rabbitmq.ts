import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { freePort } from './free-port';
import { managedServer, type PrivateServer } from './managed-server';
import { pollUntil, spawnLogged, untilReady } from './spawn-logged';

const SERVER = process.env.RABBITMQ_SERVER_BIN ?? '/usr/lib/rabbitmq/bin/rabbitmq-server';

async function acceptsAmqp(url: string): Promise<boolean> {
  const connection = await amqp.connect(url, { timeout: 2000 });
  await connection.close();
  return true;
}

/**
 * A RabbitMQ node of our own (name `fault<port>@localhost`) with its own ports, Mnesia and log
 * folders, plugins off, and a config file of ours, so nothing of /etc/rabbitmq (the machine's node
 * name and listener) applies. Boots in ~5-7 s on an idle machine; quorum queues survive kill -9.
 * It registers with the machine's epmd (shared, harmless: the node name is unique).
 */
export async function startPrivateRabbitMq(options: { readyTimeoutMs?: number } = {}): Promise<PrivateServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mailer-fault-rabbitmq-'));
  const logFile = path.join(dir, 'server.log');
  const port = await freePort();
  let distPort = await freePort();
  while (distPort === port) distPort = await freePort();
  const configFile = path.join(dir, 'rabbitmq.conf');
  writeFileSync(configFile, `listeners.tcp.1 = 127.0.0.1:${port}\nloopback_users = none\n`);
  writeFileSync(path.join(dir, 'enabled_plugins'), '[].\n');
  writeFileSync(path.join(dir, 'rabbitmq-env.conf'), '');
  const pidFile = path.join(dir, 'rabbit.pid');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    // The Erlang cookie is created in HOME: a private one, so rabbitmqctl of the machine is unaffected.
    HOME: dir,
    RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_CONFIG_FILE: configFile,
    RABBITMQ_NODENAME: `fault${port}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_PID_FILE: pidFile,
  };
  const url = `amqp://guest:guest@127.0.0.1:${port}`;
  return managedServer({
    url,
    port,
    dir,
    start: async () => {
      const child = spawnLogged(SERVER, [], { logFile, env, cwd: dir });
      return untilReady(child, logFile, (alive) =>
        pollUntil(() => acceptsAmqp(url), alive, options.readyTimeoutMs ?? 30_000, 'private RabbitMQ'),
      );
    },
    // The Erlang VM (not the shell wrapper) takes SIGTERM as a clean shutdown.
    gracefulStop: () => ({ pid: Number(readFileSync(pidFile, 'utf8').trim()), signal: 'SIGTERM' }),
  });
}
