import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { onProcessExit } from './cleanup';
import { processTree, signalAll, waitForExit, waitUntilStopped } from './process-tree';

/** A server of our own, on its own port and data folder, that a test may crash, freeze and restart. */
export interface PrivateServer {
  url: string;
  port: number;
  /** The temp folder holding the data and logs; removed by stop(). */
  dir: string;
  /** SIGKILL the server and every process below it, as a crash or an OOM kill would. */
  kill9(): Promise<void>;
  /** Starts it again on the same port and data (stopping it gracefully first if it runs). */
  restart(): Promise<void>;
  /** SIGSTOP the whole server: connections stay open but nothing answers (a hung host). */
  pause(): void;
  /** SIGCONT: it answers again. */
  resume(): void;
  /** Graceful stop (SIGKILL after 10 s), then removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** How to run one kind of server: start it (resolving once it serves) and stop it gracefully. */
export interface ServerRecipe {
  url: string;
  port: number;
  dir: string;
  /** Spawns the server and resolves once it accepts work; the child is the root of its process tree. */
  start(): Promise<ChildProcess>;
  /** The signal that asks the server's main process to shut down cleanly, and that process's pid. */
  gracefulStop(child: ChildProcess): { pid: number; signal: NodeJS.Signals };
}

/** Wraps a recipe with crash, freeze, restart and always-clean-up behaviour. */
export async function managedServer(recipe: ServerRecipe): Promise<PrivateServer> {
  let child: ChildProcess | undefined;
  let paused: number[] = [];
  let stopped = false;
  const tree = () => (child?.pid === undefined ? [] : processTree(child.pid));
  const cancelCleanup = onProcessExit(() => {
    signalAll(tree(), 'SIGKILL');
    rmSync(recipe.dir, { recursive: true, force: true });
  });

  const kill9 = async () => {
    const pids = tree();
    signalAll(pids, 'SIGKILL');
    await waitForExit(pids, 10_000);
    child = undefined;
    paused = [];
  };
  const resume = () => {
    signalAll([...paused, ...tree()], 'SIGCONT');
    paused = [];
  };
  const shutdown = async () => {
    if (!child) return;
    resume();
    const pids = tree();
    let graceful: { pid: number; signal: NodeJS.Signals } | undefined;
    try {
      graceful = recipe.gracefulStop(child);
    } catch {
      graceful = undefined; // its main process is already gone (pid file removed)
    }
    // Only ever signal a process of our own tree: a stale or foreign pid must never reach the
    // machine's servers.
    if (graceful && pids.includes(graceful.pid)) signalAll([graceful.pid], graceful.signal);
    else signalAll(pids, 'SIGKILL');
    try {
      await waitForExit(pids, 10_000);
    } catch {
      signalAll(tree(), 'SIGKILL');
      await waitForExit(pids, 5_000);
    }
    child = undefined;
  };

  try {
    child = await recipe.start();
  } catch (error) {
    signalAll(tree(), 'SIGKILL');
    rmSync(recipe.dir, { recursive: true, force: true });
    cancelCleanup();
    throw error;
  }
  return {
    url: recipe.url,
    port: recipe.port,
    dir: recipe.dir,
    kill9,
    async restart() {
      await shutdown();
      child = await recipe.start();
    },
    pause() {
      const pids = tree();
      signalAll(pids, 'SIGSTOP');
      paused = pids;
      waitUntilStopped(pids);
    },
    resume,
    async stop() {
      if (stopped) return;
      stopped = true;
      await shutdown();
      rmSync(recipe.dir, { recursive: true, force: true });
      cancelCleanup();
    },
  };
}
