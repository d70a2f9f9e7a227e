import type { BrokerSettler } from './broker-quiet';
import type { LoadTarget } from './closed-loop';
import { diskFlushesSuffix, withDiskProbe, type DiskFlushFigures } from './disk-flush-probe';
import type { Targets } from './load-targets';
import { openLoopAgent, runOpenLoop, type OpenLoopResult } from './open-loop';
import { checkResponses } from './response-check';

/** The closed-loop scenarios with a latency row at half load, and the label their line carries. */
const HALF_LOAD_LABELS = { getContact: 'GET', ingestEvent: 'events' } as const;
export type HalfLoadScenario = keyof typeof HALF_LOAD_LABELS;

export const hasHalfLoadRow = (scenario: string): scenario is HalfLoadScenario => scenario in HALF_LOAD_LABELS;

export interface OpenLoopAtHalfOptions {
  settler: BrokerSettler;
  seconds: number;
  targets: Targets;
  /** Collects what went wrong (non-2xx answers, errors). */
  problems: string[];
  log: (text: string) => void;
  /** Probe the disk in this folder during each measured loop (`withDiskProbe`). */
  diskProbeDirectory?: string;
}

/**
 * Seconds the loop runs at its rate, unmeasured, before it is measured with the same connections.
 * A cold client opens a connection for each request that finds none free; on a slow machine that
 * ramp saturated both cores for the first 1-3 s and put answers of up to 1.8 s into a p99 that is
 * meant to describe the stack at half load (docs/adr/0044-benchmark-method.md).
 */
const WARM_UP_SECONDS = 3;

/** An open loop's figures, with the disk's flushes meanwhile when it was probed. */
export interface ProbedOpenLoopResult extends OpenLoopResult {
  diskFlushes?: DiskFlushFigures;
}

/** The scenario's open loop, and the same loop (generator, rate, warm-up) against baseline A right after. */
export interface HalfLoadResult extends ProbedOpenLoopResult {
  baselineA: ProbedOpenLoopResult;
}

/** One open loop at `ratePerS` against `target`, measured in steady state after a warm-up at the same rate. */
async function warmOpenLoop(options: OpenLoopAtHalfOptions, target: LoadTarget, label: string, ratePerS: number): Promise<ProbedOpenLoopResult> {
  const name = `${target.name}, open loop`;
  await options.settler.before(name);
  const agent = openLoopAgent();
  const run = async (seconds: number, suffix = ''): Promise<ProbedOpenLoopResult> => {
    const { result, diskFlushes } = await withDiskProbe(options.diskProbeDirectory, () =>
      runOpenLoop(target.baseUrl, ratePerS, seconds, () => target.next(), { agent }),
    );
    checkResponses(options.problems, `${name}${suffix}`, result.sent - result.errors, result.non2xx, result.errors);
    options.log(`${label}${suffix}: p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, errors ${JSON.stringify(result.errorKinds)}${diskFlushesSuffix(diskFlushes)}`);
    return diskFlushes ? { ...result, diskFlushes } : result;
  };
  try {
    await run(WARM_UP_SECONDS, ` (warm-up ${WARM_UP_SECONDS} s, not counted)`);
    return await run(options.seconds);
  } finally {
    agent.destroy();
  }
}

/**
 * An open loop at half the scenario's closed-loop throughput: latency when the stack is not
 * saturated, measured in steady state after a warm-up at the same rate (whose figures are logged).
 * Then the same loop against baseline A: what the generator and the machine alone put into a p50
 * and a p99 at that rate, for the absolute latency rows (docs/adr/0044-benchmark-method.md).
 */
export async function openLoopAtHalf(options: OpenLoopAtHalfOptions, scenario: HalfLoadScenario, closedLoopReqPerS: number): Promise<HalfLoadResult> {
  const ratePerS = Math.max(1, Math.round(closedLoopReqPerS / 2));
  const label = `open loop ${HALF_LOAD_LABELS[scenario]} at ${ratePerS}/s`;
  const measured = await warmOpenLoop(options, options.targets[scenario], label, ratePerS);
  const baselineA = await warmOpenLoop(options, options.targets.baselineA, `${label}, baseline A at the same rate`, ratePerS);
  return { ...measured, baselineA };
}
