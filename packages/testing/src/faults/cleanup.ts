const cleanups = new Set<() => void>();
let installed = false;

function runAll(): void {
  for (const cleanup of [...cleanups]) {
    try {
      cleanup();
    } catch {
      // best effort: the process is going away
    }
  }
  cleanups.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      runAll();
      process.off(signal, onSignal);
      // Nobody else handles it: die of the signal as we would have without this handler.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/**
 * Runs `cleanup` (synchronously: kill, remove files) if the test process exits or is signalled
 * before the server was stopped, so a failed or interrupted test leaves no orphan server behind.
 * Returns the function that cancels it after a normal stop.
 */
export function onProcessExit(cleanup: () => void): () => void {
  install();
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
}
