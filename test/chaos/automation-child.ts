import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
/** Preloaded into each child: it exits once this process is gone, even when killed outright. */
const EXIT_WITH_PARENT = path.join(__dirname, 'exit-with-parent.cjs');

/** A service as a real process (its build output), so a test can SIGKILL it mid-work. */
export interface ServiceChild {
  url: string;
  /** SIGKILL, as an OOM kill or a lost node would: no shutdown hook runs. */
  kill9(): Promise<void>;
  /** Starts a new process with the same environment (same database, broker namespace, port), plus `extra`. */
  start(extra?: NodeJS.ProcessEnv): Promise<void>;
  /** Resolves when the current process has exited by itself (e.g. a crash point killed it). */
  died(timeoutMs: number): Promise<void>;
  /** Graceful stop (SIGTERM), for the end of the test. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** The automation worker as a child process (the crash-point matrix kills it alone). */
export type AutomationChild = ServiceChild;

export const automationChild = (env: NodeJS.ProcessEnv, port: number, logFile: string): AutomationChild =>
  serviceChild('automation', env, port, logFile);

/**
 * `service` from its build output on `port` (PORT; the gateway's REST listener is GATEWAY_PORT,
 * given in `env`), ready when its /readyz answers 200.
 */
export function serviceChild(service: string, env: NodeJS.ProcessEnv, port: number, logFile: string): ServiceChild {
  const main = path.join(ROOT, 'services', service, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${service} is not built (${main}); run npx tsc -b first`);
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  // A forgotten child must not outlive the test run (and if this process is killed outright, the
  // preloaded EXIT_WITH_PARENT ends it).
  const killOnExit = () => child?.kill('SIGKILL');

  async function start(extra: NodeJS.ProcessEnv = {}) {
    // stop() unregisters it; a restarted child needs it again.
    process.off('exit', killOnExit);
    process.once('exit', killOnExit);
    const log = openSync(logFile, 'a');
    try {
      child = spawn(process.execPath, ['--require', EXIT_WITH_PARENT, main], {
        cwd: path.join(ROOT, 'services', service),
        env: { ...env, ...extra, PORT: String(port) },
        stdio: ['ignore', log, log],
      });
    } finally {
      closeSync(log);
    }
    const current = child;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (current.exitCode !== null)
        throw new Error(`${service} exited with code ${current.exitCode} (see ${logFile})`);
      // readyz: its database and the broker are reachable, so it consumes again.
      if (
        await fetch(`${url}/readyz`).then(
          (response) => response.ok,
          () => false,
        )
      )
        return;
      if (Date.now() > deadline) throw new Error(`${service} not ready after 30 s (see ${logFile})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    url,
    start,
    async died(timeoutMs) {
      const current = child;
      if (!current) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${service} still alive after ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      try {
        await Promise.race([exited(current), timeout]);
      } finally {
        clearTimeout(timer);
      }
      child = undefined;
    },
    async kill9() {
      if (!child) return;
      const dying = exited(child);
      child.kill('SIGKILL');
      await dying;
      child = undefined;
    },
    async stop() {
      process.off('exit', killOnExit);
      if (!child) return;
      const dying = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await dying;
      clearTimeout(timer);
      child = undefined;
    },
  };
}
