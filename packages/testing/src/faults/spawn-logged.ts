import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { processTree, signalAll } from './process-tree';

/**
 * Spawns a server with stdout and stderr appended to `logFile` (kept for diagnosis, never piped
 * into the test process), unref'd so a forgotten server cannot keep jest alive: the exit
 * handler kills it instead.
 */
export function spawnLogged(
  command: string,
  args: string[],
  options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string },
): ChildProcess {
  const log = openSync(options.logFile, 'a');
  try {
    const child = spawn(command, args, { stdio: ['ignore', log, log], env: options.env, cwd: options.cwd });
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

/**
 * Waits for `ready` (which polls while `alive()` says the child still runs); on failure kills
 * what was spawned and throws with the tail of the server's log.
 */
export async function untilReady(
  child: ChildProcess,
  logFile: string,
  ready: (alive: () => boolean) => Promise<void>,
): Promise<ChildProcess> {
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited early (code ${code}, signal ${signal})`;
  });
  try {
    await ready(() => exited === undefined);
    if (exited) throw new Error(exited);
    return child;
  } catch (error) {
    if (child.pid !== undefined) signalAll(processTree(child.pid), 'SIGKILL');
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
    const reason = exited ?? (error instanceof Error ? error.message : String(error));
    throw new Error(`${reason}\n--- ${logFile} ---\n${tail}`, { cause: error });
  }
}

/** Polls `probe` until it resolves true, the child dies, or `timeoutMs` passes. */
export async function pollUntil(
  probe: () => Promise<boolean>,
  alive: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`${what}: the server exited`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
