import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort, rememberNamespace, testServers, waitFor } from '@mailer/testing';
import { exited, healthy, root } from './stack-process';

/** Where each service's own port is set (the gateway's listeners have names of their own). */
const PORT_VARIABLES: Record<string, readonly string[]> = {
  gateway: ['GATEWAY_PORT', 'EVENTS_PORT', 'GATEWAY_INTERNAL_PORT'],
};
const SERVICES = ['gateway', 'contacts', 'campaigns', 'events', 'automation', 'web', 'webhooks'] as const;

/**
 * Each service deploys alone: started from its own build output in its own folder, with only the
 * servers and the secret in its environment (no other service running, no variable naming another
 * service's database or mail server), it comes up and answers /healthz.
 */
describe('each service starts alone, with only its own environment', () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => exited(child)));
  });

  it.each(SERVICES)('%s', async (service) => {
    const servers = testServers();
    const ports = Object.fromEntries(
      await Promise.all((PORT_VARIABLES[service] ?? ['PORT']).map(async (name) => [name, String(await freePort())] as const)),
    );
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: path.join(root, 'services', service),
      env: {
        PATH: process.env.PATH,
        ...ports,
        INTERNAL_SIGNING_SECRET: randomBytes(24).toString('hex'),
        POSTGRES_URL: servers.postgresUrl,
        DB_PREFIX: `${servers.dbPrefix}lone_`,
        REDIS_URL: servers.redisUrl,
        REDIS_KEY_PREFIX: `${servers.redisKeyPrefix}lone:`,
        AMQP_URL: servers.amqpUrl,
        BROKER_NAMESPACE: rememberNamespace(`lone${randomBytes(4).toString('hex')}.`),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const port = Object.values(ports)[0];
    try {
      await waitFor(() => (child.exitCode === null ? healthy(`http://127.0.0.1:${port}/healthz`) : Promise.reject(new Error(`exited ${child.exitCode}`))), {
        timeoutMs: 30_000,
        intervalMs: 200,
        what: `${service} /healthz`,
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- ${service} output ---\n${output}`, { cause: error });
    }
    expect(child.exitCode).toBeNull();
  }, 45_000);
});
