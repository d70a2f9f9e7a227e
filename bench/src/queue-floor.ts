import path from 'node:path';
import amqp from 'amqplib';
import { freePort } from '@mailer/testing';
import type { ArrivalSink } from './arrival-sink';
import type { Cleanup } from './cleanup';
import { diskFlushesSuffix, withDiskProbe, type DiskFlushFigures } from './disk-flush-probe';
import { atFixedRate } from './fixed-rate';
import { percentile } from './percentile';
import { baselineQueueName } from './run-resources';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { SinkArrivals } from './sink-arrivals';
import { BENCH_DOMAIN } from './start-stack';

/** Automation's enrolment consumer's prefetch (services/automation/.../product-events.consumer.ts). */
const AUTOMATION_PREFETCH = 32;
/** Seconds at the rate, unrecorded, before the window: the consumer's SMTP pool opens, V8 compiles. */
const WARM_UP_SECONDS = 3;

/** Q at one rate: scheduled publish to the email's arrival in the sink. */
export interface QueueFloorResult {
  ratePerS: number;
  published: number;
  /** Published and confirmed by the broker. */
  confirmed: number;
  arrived: number;
  /** Confirmed messages whose email never reached the sink within the straggler wait. */
  missing: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The disk's flushes while the measured window ran, when probed: the queue's commits wait for such a flush too. */
  diskFlushes?: DiskFlushFigures;
}

export interface QueueFloorWindow {
  ratePerS: number;
  seconds: number;
  runId: string;
  stragglerWaitMs: number;
  log: (text: string) => void;
  /** Probe the disk in this folder during the measured window (`withDiskProbe`). */
  diskProbeDirectory?: string;
}

export interface QueueFloor {
  process: ServiceProcess;
  /** A warm-up at the rate (its line logged), then `seconds` measured. */
  measure(options: QueueFloorWindow): Promise<QueueFloorResult>;
}

export const describeQueueFloor = (result: QueueFloorResult, note = '') =>
  `queue floor Q at ${result.ratePerS}/s${note}: ${result.arrived}/${result.confirmed} arrived, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms${diskFlushesSuffix(result.diskFlushes)}`;

/**
 * One window: a bare publisher in this process puts sign-ups, persistent and confirmed, on the
 * floor's quorum queue at a fixed rate (open loop); latency from each one's scheduled time to its
 * email's arrival in the sink, as `measureEventToEmail` counts the stack's.
 */
async function measureWindow(
  amqpUrl: string,
  queue: string,
  sink: ArrivalSink,
  options: { ratePerS: number; seconds: number; runId: string; stragglerWaitMs: number },
): Promise<QueueFloorResult> {
  const tag = `.${options.runId}.q${options.ratePerS}@${BENCH_DOMAIN}`;
  const email = (index: number) => `floor${index}${tag}`;
  const arrivals = new SinkArrivals(sink, (recipient) => recipient.endsWith(tag));
  const scheduled = new Map<string, number>();
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    const confirms: Array<Promise<void>> = [];
    const published = await atFixedRate(options.ratePerS, options.seconds, (index, scheduledAtMs) => {
      const recipient = email(index);
      const body = Buffer.from(JSON.stringify({ email: recipient, firstName: `User${index}`, id: `floor.${index}.${options.runId}.${options.ratePerS}` }));
      confirms.push(
        new Promise<void>((resolve) => {
          channel.sendToQueue(queue, body, { persistent: true, contentType: 'application/json' }, (error: unknown) => {
            if (!error) scheduled.set(recipient, scheduledAtMs);
            resolve();
          });
        }),
      );
    });
    await Promise.all(confirms);
    await arrivals.waitFor(scheduled.size, options.stragglerWaitMs);
    const latencies: number[] = [];
    for (const [recipient, scheduledAtMs] of scheduled) {
      const received = arrivals.receivedAt.get(recipient);
      if (received !== undefined) latencies.push(received - scheduledAtMs);
    }
    return {
      ratePerS: options.ratePerS,
      published,
      confirmed: scheduled.size,
      arrived: latencies.length,
      missing: scheduled.size - latencies.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.length > 0 ? Math.max(...latencies) : Number.NaN,
    };
  } finally {
    await connection.close();
  }
}

/**
 * Baseline Q, the event -> email floor of one broker hop: its consumer (queue-floor-consumer) as
 * its own process, sending into `sink` with `smtpPoolSize` connections, registered with `cleanup`;
 * its queue goes with the run's broker namespace (`removeRunBrokerTopology`). Nothing is left in
 * the queue between windows: each waits until its emails arrived, and the consumer acks each after its send.
 */
export async function startQueueFloor(options: {
  amqpUrl: string;
  namespace: string;
  sink: ArrivalSink;
  smtpPoolSize: number;
  cleanup: Cleanup;
}): Promise<QueueFloor> {
  const port = await freePort();
  const queue = baselineQueueName(options.namespace, 'queueFloor');
  const consumer = await startServiceProcess(
    'baseline-q',
    path.join(__dirname, 'queue-floor-consumer.js'),
    {
      ...process.env,
      PORT: String(port),
      AMQP_URL: options.amqpUrl,
      QUEUE_FLOOR_QUEUE: queue,
      SMTP_PORT: String(options.sink.port),
      SMTP_POOL_SIZE: String(options.smtpPoolSize),
      PREFETCH: String(AUTOMATION_PREFETCH),
    },
    `http://127.0.0.1:${port}/readyz`,
  );
  options.cleanup.add('baseline Q', () => consumer.stop());
  return {
    process: consumer,
    async measure({ log, diskProbeDirectory, ...window }) {
      const warmUp = await measureWindow(options.amqpUrl, queue, options.sink, { ...window, runId: `${window.runId}.warm-up`, seconds: WARM_UP_SECONDS });
      log(describeQueueFloor(warmUp, ` (warm-up ${WARM_UP_SECONDS} s, not counted)`));
      const { result, diskFlushes } = await withDiskProbe(diskProbeDirectory, () => measureWindow(options.amqpUrl, queue, options.sink, window));
      const measured = diskFlushes ? { ...result, diskFlushes } : result;
      log(describeQueueFloor(measured));
      return measured;
    },
  };
}
