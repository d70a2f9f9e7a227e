import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, waitFor } from '@mailer/testing';

export const root = path.join(__dirname, '..', '..');

/** Every listener `npm start` opens that answers /healthz, by the variable that sets its port. */
export const SERVICE_PORT_VARIABLES = [
  'GATEWAY_PORT',
  'EVENTS_PORT',
  'GATEWAY_INTERNAL_PORT',
  'CONTACTS_PORT',
  'CAMPAIGNS_PORT',
  'EVENTS_SERVICE_PORT',
  'AUTOMATION_PORT',
  'WEB_PORT',
  'WEBHOOKS_PORT',
] as const;

/** The local inbox's listeners (started when no SMTP_URL is set). */
export const INBOX_PORT_VARIABLES = ['INBOX_PORT', 'INBOX_SMTP_PORT'] as const;

/** A free port for each variable, so a stack under test never meets another on a default port. */
export async function freePorts(names: readonly string[]): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, String(await freePort())])));
}

/** The /healthz address of each listener named (the SMTP port has none). */
export const healthUrls = (ports: Record<string, string>, names: readonly string[]) =>
  names.filter((name) => name !== 'INBOX_SMTP_PORT').map((name) => `http://127.0.0.1:${ports[name]}/healthz`);

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

export async function healthy(url: string): Promise<true | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return response.status === 200 && /application\/json/.test(response.headers.get('content-type') ?? '')
      ? true
      : undefined;
  } catch {
    return undefined;
  }
}

/** A stack started the way `npm start` starts it (the compiled services), with its output kept. */
export interface StackProcess {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

export function startStackProcess(env: NodeJS.ProcessEnv): StackProcess {
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start-stack.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited(child);
    },
  };
}

export async function waitHealthy(urls: string[], timeoutMs: number, stack: StackProcess): Promise<void> {
  const started = Date.now();
  try {
    for (const url of urls)
      await waitFor(() => healthy(url), {
        timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)),
        intervalMs: 200,
        what: url,
      });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- stack output ---\n${stack.output()}`, { cause: error });
  }
}
