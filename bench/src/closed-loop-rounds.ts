import type { BenchConfig } from './bench-config';
import type { BrokerSettler } from './broker-quiet';
import type { ClosedLoopScenario } from './bench-results';
import type { ClosedLoopResult } from './closed-loop';
import { runInterleavedRounds } from './interleaved-rounds';
import type { Targets } from './load-targets';
import { median } from './percentile';

/** The order of one round: each baseline is measured right before the scenarios it is compared with. */
const ORDER: ClosedLoopScenario[] = ['baselineA', 'baselineA2', 'getContact', 'createContact', 'baselineE', 'baselineE2', 'ingestEvent'];

/**
 * A short unrecorded warm-up of every target (JIT, pools, the DNS cache), then BENCH_ROUNDS rounds
 * of A, A2, GET, POST, E, E2, EVENTS interleaved, so slow drift of a shared machine hits all of
 * them alike. Each starts once the broker is quiet, so no scenario pays for the queued work of the
 * one before. `only` keeps the scenarios and baselines named (bench:focus); the others are reported empty.
 */
export async function runClosedLoopRounds(
  config: BenchConfig,
  targets: Targets,
  pids: ReadonlyMap<string, number>,
  settler: BrokerSettler,
  only?: readonly ClosedLoopScenario[],
) {
  const log = (text: string) => process.stderr.write(`${text}\n`);
  const order = only ? ORDER.filter((scenario) => only.includes(scenario)) : ORDER;
  const rounds = await runInterleavedRounds(config, order.map((scenario) => targets[scenario]), pids, settler, log);
  const closedLoop = Object.fromEntries(ORDER.map((scenario) => [scenario, rounds[order.indexOf(scenario)] ?? []])) as Record<ClosedLoopScenario, ClosedLoopResult[]>;
  const medianOf = (scenario: ClosedLoopScenario) =>
    Math.round(median(closedLoop[scenario].map((result) => result.reqPerS)));
  const medianReqPerS = Object.fromEntries(ORDER.map((scenario) => [scenario, medianOf(scenario)])) as Record<ClosedLoopScenario, number>;
  return { closedLoop, medianReqPerS };
}
