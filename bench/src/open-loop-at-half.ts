import type { BrokerSettler } from './broker-quiet';
import type { HttpRequestSpec } from './closed-loop';
import { runOpenLoop, type OpenLoopResult } from './open-loop';
import { checkResponses } from './response-check';

export interface OpenLoopAtHalfOptions {
  settler: BrokerSettler;
  seconds: number;
  /** Collects what went wrong (non-2xx answers, errors). */
  problems: string[];
  log: (text: string) => void;
}

/** An open loop at half the closed-loop throughput: latency when the stack is not saturated. */
export async function openLoopAtHalf(
  options: OpenLoopAtHalfOptions,
  scenario: { name: string; label: string; baseUrl: string; closedLoopReqPerS: number; next: () => HttpRequestSpec },
): Promise<OpenLoopResult> {
  await options.settler.before(scenario.name);
  const result = await runOpenLoop(scenario.baseUrl, Math.max(1, Math.round(scenario.closedLoopReqPerS / 2)), options.seconds, scenario.next);
  checkResponses(options.problems, scenario.name, result.sent - result.errors, result.non2xx, result.errors);
  options.log(
    `open loop ${scenario.label} at ${result.ratePerS}/s: p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, errors ${JSON.stringify(result.errorKinds)}`,
  );
  return result;
}
