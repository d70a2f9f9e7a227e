import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (state first), or undefined when it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The parent pid of `pid` from /proc (Linux), or undefined when it is gone. */
function parentOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields === undefined ? undefined : Number(fields[1]);
}

const pauseBriefly = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Blocks until every process of `pids` is stopped (state T) or gone. A SIGSTOP is queued, not
 * applied, when kill() returns: on a loaded machine a process can still run for a moment, and a
 * test that asserts the server is unresponsive must not start before it is.
 */
export function waitUntilStopped(pids: readonly number[], timeoutMs = 5000): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = pids.filter((pid) => {
      const state = statFields(pid)?.[0];
      return state !== undefined && state !== 'T' && state !== 't' && state !== 'Z' && state !== 'X';
    });
    if (running.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes ${running.join(', ')} did not stop within ${timeoutMs} ms`);
    pauseBriefly(5);
  }
}

/**
 * `pid` and every process below it. Postgres backends call setsid(), so a process group kill
 * would miss them: the tree is read from /proc instead.
 */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = Number(entry);
    const parent = parentOf(child);
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(child);
    children.set(parent, list);
  }
  const tree: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers signal 0; it is dead for our purposes.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Sends `signal` to each pid, ignoring the ones already gone. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already exited
    }
  }
}

/** Waits until none of `pids` is alive. */
export async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) throw new Error(`processes ${pids.join(', ')} still alive after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
