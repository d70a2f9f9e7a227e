import type { BrokerSettler } from './broker-quiet';
import type { Targets } from './load-targets';
import { runOpenLoop, type OpenLoopResult } from './open-loop';
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
}

/** An open loop at half the scenario's closed-loop throughput: latency when the stack is not saturated. */
export async function openLoopAtHalf(options: OpenLoopAtHalfOptions, scenario: HalfLoadScenario, closedLoopReqPerS: number): Promise<OpenLoopResult> {
  const target = options.targets[scenario];
  const name = `${target.name}, open loop`;
  await options.settler.before(name);
  const result = await runOpenLoop(target.baseUrl, Math.max(1, Math.round(closedLoopReqPerS / 2)), options.seconds, () => target.next());
  checkResponses(options.problems, name, result.sent - result.errors, result.non2xx, result.errors);
  options.log(
    `open loop ${HALF_LOAD_LABELS[scenario]} at ${result.ratePerS}/s: p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, errors ${JSON.stringify(result.errorKinds)}`,
  );
  return result;
}
