import { readdirSync, readFileSync } from 'node:fs';

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
