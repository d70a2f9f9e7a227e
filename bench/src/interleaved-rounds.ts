import type { BenchConfig } from './bench-config';
import type { BrokerSettler } from './broker-quiet';
import { runClosedLoop, type ClosedLoopResult, type LoadTarget } from './closed-loop';

/**
 * An unrecorded warm-up of each target, then BENCH_ROUNDS rounds of all of them in the order given
 * (the baseline first, right before what it is compared with), so slow drift of a shared machine
 * hits all alike; each starts once the broker is quiet. Resolves to each target's rounds, in order.
 */
export async function runInterleavedRounds(
  config: BenchConfig,
  targets: readonly LoadTarget[],
  pids: ReadonlyMap<string, number>,
  settler: BrokerSettler,
  log: (text: string) => void,
): Promise<ClosedLoopResult[][]> {
  const run = (target: LoadTarget, seconds: number) =>
    runClosedLoop(target, { connections: config.connections, seconds, pids, drained: settler.drained });
  for (const target of targets) {
    await settler.before(`warm-up ${target.name}`);
    await run(target, config.warmupSeconds);
  }
  const rounds = targets.map((): ClosedLoopResult[] => []);
  for (let round = 1; round <= config.rounds; round++) {
    for (const [index, target] of targets.entries()) {
      await settler.before(`round ${round} ${target.name}`);
      const result = await run(target, config.secondsPerScenario);
      rounds[index]!.push(result);
      log(
        `round ${round}: ${result.scenario}: ${result.reqPerS} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, non-2xx ${result.non2xx}, errors ${result.errors}, queued work done ${result.asyncDrainMs} ms later`,
      );
    }
  }
  return rounds;
}
