import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Pids of live processes whose environment carries `marker=value` (how we find a run's descendants). */
export function processesMarked(marker: string, value: string): number[] {
  const needle = `${marker}=${value}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const zombie = / Z /.test(stat.slice(stat.lastIndexOf(')')));
      if (!zombie && environ.includes(needle)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked, or is not ours to read
    }
  }
  return pids;
}
