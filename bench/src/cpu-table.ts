import type { BenchResults, ClosedLoopScenario } from './bench-results';
import { median } from './percentile';
import { isBaselineProcess } from './service-process';

/**
 * CPU per request of each closed-loop scenario (median over the rounds), in µs: each process, the
 * services together, the servers (Postgres, RabbitMQ, Redis, and the benchmark's own process with
 * the load generator), and the whole machine, counted until the work the requests queued on the
 * broker was done (its duration: last column).
 */
export function cpuTable(results: BenchResults): Array<Record<string, string | number>> {
  return (
    Object.entries(results.closedLoop) as Array<
      [ClosedLoopScenario, BenchResults['closedLoop'][ClosedLoopScenario]]
    >
  ).map(([scenario, rounds]) => {
    const names = Object.keys(rounds[0]?.cpuMicrosPerRequest.processes ?? {});
    const row: Record<string, string | number> = { 'µs CPU / request': rounds[0]?.scenario ?? scenario };
    for (const name of names)
      row[name] = median(rounds.map((round) => round.cpuMicrosPerRequest.processes[name] ?? Number.NaN));
    row['services'] = median(
      rounds.map((round) =>
        Object.entries(round.cpuMicrosPerRequest.processes)
          .filter(([name]) => !isBaselineProcess(name))
          .reduce((sum, [, micros]) => sum + micros, 0),
      ),
    );
    for (const server of Object.keys(rounds[0]?.cpuMicrosPerRequest.servers ?? {}))
      row[server] = median(rounds.map((round) => round.cpuMicrosPerRequest.servers[server] ?? Number.NaN));
    row['machine'] = median(rounds.map((round) => round.cpuMicrosPerRequest.machine));
    row['queued work ms'] = median(rounds.map((round) => round.asyncDrainMs));
    return row;
  });
}
