import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testServers, waitFor, rememberNamespace } from '@mailer/testing';
import { processesMarked } from './process-tools';
import {
  exited,
  freePorts,
  healthUrls,
  healthy,
  INBOX_PORT_VARIABLES,
  root,
  SERVICE_PORT_VARIABLES,
} from './stack-process';

describe('npm start (the whole stack without Docker)', () => {
  it('names every port it opens in the tests list, so no stack under test falls back to a default port', () => {
    const script = readFileSync(path.join(root, 'scripts', 'start-stack.mjs'), 'utf8');
    const opened = [...script.matchAll(/port\('([A-Z_]+)'/g)].map((match) => match[1]);
    expect(opened.length).toBeGreaterThan(5);
    expect([...opened].sort()).toEqual([...SERVICE_PORT_VARIABLES, ...INBOX_PORT_VARIABLES].sort());
  });

  it('brings every service (web, webhooks and the gateway internal listener too) to /healthz 200 within 30 s, and SIGTERM stops every process within 10 s', async () => {
    const servers = testServers();
    const ports = await freePorts(SERVICE_PORT_VARIABLES);
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
        BROKER_NAMESPACE: rememberNamespace(`stack${marker}.`),
        SMTP_URL: 'smtp://127.0.0.1:1',
        MAILER_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'mailer-stack-')),
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
      for (const url of healthUrls(ports, SERVICE_PORT_VARIABLES)) {
        await waitFor(() => healthy(url), {
          timeoutMs: 30_000 - (Date.now() - started),
          intervalMs: 200,
          what: url,
        });
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
