import { performance } from 'node:perf_hooks';

/** Wall-clock time in ms with sub-millisecond precision, comparable with the sink's `Date.now()` stamps. */
export const epochNow = () => performance.timeOrigin + performance.now();

/**
 * Calls `fire(index, scheduledAtMs)` for `ratePerS * seconds` indexes, index i due at start + i/rate,
 * whatever became of the earlier ones (open loop): when the process was late, the ones due are fired
 * at once, each still carrying its due time, so latency counted from it includes the lateness.
 * Resolves to how many were fired, once the last was.
 */
export async function atFixedRate(ratePerS: number, seconds: number, fire: (index: number, scheduledAtMs: number) => void): Promise<number> {
  const total = Math.max(1, Math.round(ratePerS * seconds));
  const intervalMs = 1000 / ratePerS;
  const start = epochNow();
  let index = 0;
  while (index < total) {
    const now = epochNow();
    while (index < total && start + index * intervalMs <= now) {
      fire(index, start + index * intervalMs);
      index++;
    }
    if (index < total) await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + index * intervalMs - epochNow())));
  }
  return total;
}
