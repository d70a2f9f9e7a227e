import type { ArrivalSink } from './arrival-sink';
import { diskFlushesSuffix, withDiskProbe, type DiskFlushFigures } from './disk-flush-probe';
import { runOpenLoop } from './open-loop';
import { SIGNUP_EVENT } from './operator-setup';
import { percentile } from './percentile';
import { SinkArrivals } from './sink-arrivals';
import { stageBreakdown, type SignupTimes, type StageFigures } from './stage-breakdown';
import { readStoredStageTimes } from './stored-stage-times';
import { BENCH_DOMAIN } from './start-stack';

const OUTCOME_COMMIT_WAIT_MS = 1000;

/**
 * Sign-ups sent, unrecorded, before the first measured rate. The send path (enrolment, rendering,
 * SMTP, the outcome) runs once per sign-up, so V8 optimizes its functions only after hundreds of
 * them: at 100/s the gateway was still spending 1.7 s of a core on optimizing compiles in the
 * first 5 s after a 5 s warm-up, and 0.1-0.2 s in each 5 s after 20 s (docs/adr/0044-benchmark-method.md).
 * The window measures the path as it runs from then on, not its start-up; the
 * warm-up's own figures are printed beside it.
 */
const EMAIL_WARM_UP_SECONDS = 20;

export interface EventToEmailResult {
  ratePerS: number;
  events: number;
  accepted: number;
  non2xx: number;
  errors: number;
  arrived: number;
  /** Accepted events whose email never reached the sink within the straggler wait. */
  missing: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Per stage of the way to the email, when asked for (`stages` option). */
  stages?: StageFigures[];
  /** The disk's flushes from the first sign-up to the last arrival, when asked for (`diskProbeDirectory`). */
  diskFlushes?: DiskFlushFigures;
}

export interface EventToEmailOptions {
  sink: ArrivalSink;
  eventsUrl: string;
  apiKey: string;
  runId: string;
  ratePerS: number;
  seconds: number;
  stragglerWaitMs: number;
  /** Read what the services stored about each sign-up afterwards, for the per-stage breakdown. */
  stages?: { env: NodeJS.ProcessEnv; accountId: number };
  /** Probe the disk in this folder while the sign-ups run and their emails arrive (`withDiskProbe`). */
  diskProbeDirectory?: string;
}

/** One run's line: its rate, what arrived, p50 and p99 (and the disk's flushes, when probed); `note` follows the rate. */
export function describeEventToEmail(run: EventToEmailResult, note = ''): string {
  return `event -> email at ${run.ratePerS}/s${note}: ${run.arrived}/${run.accepted} arrived, p50 ${run.p50Ms.toFixed(1)} ms, p99 ${run.p99Ms.toFixed(1)} ms${diskFlushesSuffix(run.diskFlushes)}`;
}

/** The sign-ups before the first measured rate, unrecorded (`EMAIL_WARM_UP_SECONDS`); resolves with their line. */
export async function warmUpSignups(options: Omit<EventToEmailOptions, 'seconds' | 'stages'>): Promise<string> {
  const run = await measureEventToEmail({ ...options, runId: `${options.runId}.warm-up`, seconds: EMAIL_WARM_UP_SECONDS });
  return describeEventToEmail(run, ` (warm-up ${EMAIL_WARM_UP_SECONDS} s, not counted)`);
}

/**
 * Sign-up events for new addresses at a fixed rate through the gateway's events listener; latency
 * runs from each event's scheduled send time to its welcome email's arrival in the sink.
 */
export async function measureEventToEmail(options: EventToEmailOptions): Promise<EventToEmailResult> {
  const tag = `.${options.runId}.r${options.ratePerS}@${BENCH_DOMAIN}`;
  const email = (index: number) => `signup${index}${tag}`;
  /** Each accepted sign-up's times from the generator, by recipient. */
  const answered = new Map<string, Pick<SignupTimes, 'scheduled' | 'sent' | 'accepted'>>();
  const arrivals = new SinkArrivals(options.sink, (recipient) => recipient.endsWith(tag));
  const signUps = async () => {
    const ingest = await runOpenLoop(
      options.eventsUrl,
      options.ratePerS,
      options.seconds,
      (index) => ({
        method: 'POST',
        path: '/v1/events',
        headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          event: SIGNUP_EVENT,
          email: email(index),
          properties: { first_name: `User${index}`, plan: 'trial' },
        }),
      }),
      {
        onResponse: ({ index, status, scheduledAtMs, sentAtMs, answeredAtMs }) => {
          if (status < 200 || status > 299) return;
          answered.set(email(index), { scheduled: scheduledAtMs, sent: sentAtMs, accepted: answeredAtMs });
        },
      },
    );
    await arrivals.waitFor(answered.size, options.stragglerWaitMs);
    return ingest;
  };
  const { result: ingest, diskFlushes } = await withDiskProbe(options.diskProbeDirectory, signUps);
  const latencies: number[] = [];
  for (const [recipient, { scheduled }] of answered) {
    const received = arrivals.receivedAt.get(recipient);
    if (received !== undefined) latencies.push(received - scheduled);
  }
  let stages: StageFigures[] | undefined;
  if (options.stages) {
    // Automation records sent_at a moment after the sink answered 250: let the last ones commit.
    await new Promise((resolve) => setTimeout(resolve, OUTCOME_COMMIT_WAIT_MS));
    const stored = await readStoredStageTimes(options.stages.env, options.stages.accountId, tag);
    const signups: SignupTimes[] = [];
    for (const [recipient, times] of answered) {
      const arrived = arrivals.receivedAt.get(recipient);
      signups.push({ ...stored.get(recipient), ...times, ...(arrived === undefined ? {} : { arrived }) });
    }
    stages = stageBreakdown(signups);
  }
  return {
    ratePerS: options.ratePerS,
    events: ingest.sent,
    accepted: answered.size,
    non2xx: ingest.non2xx,
    errors: ingest.errors,
    arrived: latencies.length,
    missing: answered.size - latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length > 0 ? Math.max(...latencies) : Number.NaN,
    ...(stages ? { stages } : {}),
    ...(diskFlushes ? { diskFlushes } : {}),
  };
}
