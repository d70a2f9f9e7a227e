import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The benchmark's own process sends the requests and receives the emails, so a full collection of
// its heap (20-40 ms on a slow machine) inside a measured window is counted against the stack as
// late sends and late arrivals. Collecting before each window, as JMH does between iterations,
// leaves the window little to collect. `gc` is exposed to a new context, so no command-line flag is
// needed for it. V8's memory reducer, which would compact the heap again 8 s after this collection
// (inside the window), can only be turned off on the command line: the npm scripts run the
// benchmark with --no-memory-reducer.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** A full collection of this process's heap, now rather than inside the next measured window. */
export function collectOwnGarbage(): void {
  collect();
}
