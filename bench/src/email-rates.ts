import type { BrokerSettler } from './broker-quiet';
import { describeEventToEmail, measureEventToEmail, type EventToEmailOptions, type EventToEmailResult } from './event-to-email';
import type { QueueFloor, QueueFloorResult } from './queue-floor';
import { checkResponses } from './response-check';
import { forgetSinkMessages } from './sink-arrivals';
import { describeStages } from './stage-breakdown';

/** One event -> email rate of the stack, and baseline Q measured right after at the same rate. */
export type EmailRateResult = EventToEmailResult & { queueFloor: QueueFloorResult };

/** Records a problem when some of Q's messages were not confirmed or their emails never arrived. */
export function checkQueueFloor(problems: string[], floor: QueueFloorResult): void {
  const lost = floor.published - floor.arrived;
  if (lost > 0) problems.push(`queue floor Q at ${floor.ratePerS}/s: ${lost} of ${floor.published} emails never arrived (${floor.published - floor.confirmed} not confirmed)`);
}

/**
 * Event -> email at each rate (sign-ups through the gateway, latency from each one's scheduled time
 * to its email's arrival, with the per-stage breakdown), each followed by baseline Q at that rate:
 * the floor one broker hop and SMTP alone put under the same figures.
 */
export async function measureEmailRates(options: {
  rates: readonly number[];
  /** Everything of the stack's run but its rate. */
  run: Omit<EventToEmailOptions, 'ratePerS'>;
  floor: QueueFloor;
  settler: BrokerSettler;
  problems: string[];
  log: (text: string) => void;
}): Promise<EmailRateResult[]> {
  const { run, settler, problems, log } = options;
  const results: EmailRateResult[] = [];
  for (const ratePerS of options.rates) {
    forgetSinkMessages(run.sink);
    await settler.before(`event -> email at ${ratePerS}/s`);
    const measured = await measureEventToEmail({ ...run, ratePerS });
    checkResponses(problems, `event -> email at ${ratePerS}/s (ingest)`, measured.events - measured.errors, measured.non2xx, measured.errors);
    log(describeEventToEmail(measured));
    if (measured.stages) log(describeStages(measured.stages));
    forgetSinkMessages(run.sink);
    // The facts the stack's emails left are relayed and consumed first, not while Q runs.
    await settler.before(`queue floor Q at ${ratePerS}/s`);
    const queueFloor = await options.floor.measure({
      ratePerS,
      seconds: run.seconds,
      runId: run.runId,
      stragglerWaitMs: run.stragglerWaitMs,
      log,
      ...(run.diskProbeDirectory === undefined ? {} : { diskProbeDirectory: run.diskProbeDirectory }),
    });
    checkQueueFloor(problems, queueFloor);
    results.push({ ...measured, queueFloor });
  }
  forgetSinkMessages(run.sink);
  return results;
}
