import type { BrokerSettler } from './broker-quiet';
import type { LoadTarget } from './closed-loop';
import { diskFlushesSuffix, withDiskProbe, type DiskFlushFigures } from './disk-flush-probe';
import type { Targets } from './load-targets';
import { openLoopAgent, runOpenLoop, type OpenLoopResult } from './open-loop';
import { checkResponses } from './response-check';

/**
 * The closed-loop scenarios with a latency row at half load: the label their line carries, and
 * their fair baseline, the same hops without the product's work, whose closed-loop rate is halved
 * and whose p99 at that rate the scenario's is compared with.
 */
const HALF_LOAD = {
  getContact: { label: 'GET', baseline: 'baselineA2', baselineName: 'A2' },
  ingestEvent: { label: 'events', baseline: 'baselineE2', baselineName: 'E2' },
} as const;
export type HalfLoadScenario = keyof typeof HALF_LOAD;
export type HalfLoadBaseline<S extends HalfLoadScenario> = (typeof HALF_LOAD)[S]['baseline'];

export const hasHalfLoadRow = (scenario: string): scenario is HalfLoadScenario => scenario in HALF_LOAD;
export const halfLoadBaselineOf = <S extends HalfLoadScenario>(scenario: S): HalfLoadBaseline<S> => HALF_LOAD[scenario].baseline;

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

/**
 * The scenario's open loop, then the same loop (generator, rate, warm-up) against its fair baseline
 * (A2 or E2, under that baseline's key) and against baseline A.
 */
export type HalfLoadResult<S extends HalfLoadScenario> = ProbedOpenLoopResult & { baselineA: ProbedOpenLoopResult } & {
  [K in HalfLoadBaseline<S>]: ProbedOpenLoopResult;
};

/** The fair baseline's loop of a half-load result (A2's for GET, E2's for events). */
export const fairBaselineRun = <S extends HalfLoadScenario>(scenario: S, result: HalfLoadResult<S>): ProbedOpenLoopResult =>
  (result as Record<HalfLoadBaseline<S>, ProbedOpenLoopResult>)[halfLoadBaselineOf(scenario)];

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
    await target.afterRun?.();
    return await run(options.seconds);
  } finally {
    agent.destroy();
    await target.afterRun?.();
  }
}

/**
 * An open loop at half the closed-loop throughput of the scenario's fair baseline
 * (`baselineReqPerS`: A2's for GET, E2's for events): latency when the stack is not saturated,
 * measured in steady state after a warm-up at the same rate (whose figures are logged). Then the
 * same loop against that baseline, whose p99 the scenario's is compared with, and against baseline
 * A: what the generator, the machine and the same hops alone put into a p50 and a p99 at that rate
 * (docs/adr/0044-benchmark-method.md).
 */
export async function openLoopAtHalf<S extends HalfLoadScenario>(options: OpenLoopAtHalfOptions, scenario: S, baselineReqPerS: number): Promise<HalfLoadResult<S>> {
  const ratePerS = Math.max(1, Math.round(baselineReqPerS / 2));
  const { label: scenarioLabel, baseline, baselineName } = HALF_LOAD[scenario];
  const label = `open loop ${scenarioLabel} at ${ratePerS}/s`;
  const measured = await warmOpenLoop(options, options.targets[scenario], label, ratePerS);
  const fair = await warmOpenLoop(options, options.targets[baseline], `${label}, baseline ${baselineName} at the same rate`, ratePerS);
  const baselineA = await warmOpenLoop(options, options.targets.baselineA, `${label}, baseline A at the same rate`, ratePerS);
  return { ...measured, [baseline]: fair, baselineA } as HalfLoadResult<S>;
}
