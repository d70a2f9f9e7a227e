import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort, testServers, waitFor } from '@mailer/shared/testing';
import { processesMarked } from './process-tools';

const root = path.join(__dirname, '..', '..');

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function healthy(url: string): Promise<true | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return response.status === 200 && /application\/json/.test(response.headers.get('content-type') ?? '') ? true : undefined;
  } catch {
    return undefined;
  }
}

describe('npm start (the whole stack without Docker)', () => {
  it('brings all five services to /healthz 200 within 30 s, and SIGTERM stops every process within 10 s', async () => {
    const servers = testServers();
    const names = ['GATEWAY_PORT', 'EVENTS_PORT', 'CONTACTS_PORT', 'CAMPAIGNS_PORT', 'EVENTS_SERVICE_PORT', 'AUTOMATION_PORT'];
    const ports = Object.fromEntries(await Promise.all(names.map(async (name) => [name, String(await freePort())])));
    const marker = randomBytes(6).toString('hex');
    const stack = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: {
        ...process.env,
        ...ports,
        POSTGRES_URL: servers.postgresUrl,
        DB_PREFIX: `${servers.dbPrefix}stack_`,
        REDIS_URL: servers.redisUrl,
        REDIS_KEY_PREFIX: `${servers.redisKeyPrefix}stack:`,
        AMQP_URL: servers.amqpUrl,
        BROKER_NAMESPACE: `stack${marker}.`,
        SMTP_URL: 'smtp://127.0.0.1:1',
        LOG_LEVEL: 'warn',
        MAILER_STACK_RUN: marker,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    stack.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    stack.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const started = Date.now();
      const urls = ['GATEWAY_PORT', 'EVENTS_PORT', 'CONTACTS_PORT', 'CAMPAIGNS_PORT', 'EVENTS_SERVICE_PORT', 'AUTOMATION_PORT'].map(
        (name) => `http://127.0.0.1:${ports[name]}/healthz`,
      );
      for (const url of urls) {
        await waitFor(() => healthy(url), { timeoutMs: 30_000 - (Date.now() - started), intervalMs: 200, what: url });
      }
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(processesMarked('MAILER_STACK_RUN', marker).length).toBeGreaterThanOrEqual(6);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- stack output ---\n${output}`, { cause: error });
    } finally {
      const stopAsked = Date.now();
      stack.kill('SIGTERM');
      await exited(stack);
      expect(Date.now() - stopAsked).toBeLessThan(10_000);
      await waitFor(() => (processesMarked('MAILER_STACK_RUN', marker).length === 0 ? true : undefined), {
        timeoutMs: 2000,
        what: 'no orphan processes',
      });
    }
  }, 60_000);
});
