import type { ArrivalSink } from './arrival-sink';
import { round } from './percentile';
import { SinkArrivals } from './sink-arrivals';
import { BENCH_DOMAIN } from './start-stack';

export interface DrainResult {
  emails: number;
  arrived: number;
  missing: number;
  seconds: number;
  emailsPerS: number;
}

/** The arrivals of one drain: recipients `<prefix><n>.<run id>@<bench domain>`. */
export function drainArrivals(sink: ArrivalSink, prefix: string, runId: string): { arrivals: SinkArrivals; tag: string } {
  const tag = `.${runId}@${BENCH_DOMAIN}`;
  const arrivals = new SinkArrivals(sink, (recipient) => recipient.startsWith(prefix) && recipient.endsWith(tag));
  return { arrivals, tag };
}

/** Waits for `count` emails and rates the drain from `startedAt` to the last arrival; throws if none came. */
export async function drainResult(
  what: string,
  arrivals: SinkArrivals,
  count: number,
  startedAt: number,
  timeoutMs: number,
): Promise<DrainResult> {
  const arrived = await arrivals.waitFor(count, timeoutMs);
  if (arrived === 0) throw new Error(`${what}: none of ${count} emails reached the sink in ${timeoutMs / 1000} s`);
  const seconds = (Math.max(...arrivals.receivedAt.values()) - startedAt) / 1000;
  return {
    emails: count,
    arrived,
    missing: count - arrived,
    seconds: round(seconds, 2),
    emailsPerS: Math.round(arrived / seconds),
  };
}
