import type { BenchResults, ClosedLoopScenario } from '../src/bench-results';
import type { ClosedLoopResult } from '../src/closed-loop';
import { targetTable } from '../src/target-table';

const closedLoopRun = (reqPerS: number, machineMicros: number) =>
  ({ reqPerS, cpuMicrosPerRequest: { processes: {}, servers: {}, machine: machineMicros } }) as unknown as ClosedLoopResult;
const openLoopRun = (ratePerS: number, p50Ms: number, p99Ms: number) => ({ ratePerS, sent: 1, non2xx: 0, errors: 0, errorKinds: {}, p50Ms, p99Ms, maxMs: p99Ms });
const emailRun = (ratePerS: number, p50Ms: number, p99Ms: number, floorP99Ms: number) => ({
  ratePerS, events: 1000, accepted: 1000, non2xx: 0, errors: 0, arrived: 1000, missing: 0, p50Ms, p99Ms, maxMs: p99Ms,
  queueFloor: { ratePerS, published: 1000, confirmed: 1000, arrived: 1000, missing: 0, p50Ms: 2, p99Ms: floorP99Ms, maxMs: floorP99Ms },
});
const drain = (emailsPerS: number) => ({ emails: 10_000, arrived: 10_000, missing: 0, seconds: 1, emailsPerS });
const variant = (p50Ms: number, p99Ms: number) => ({ runs: [], cpuPerEvent: [{ processes: {}, servers: {}, machine: 100 }], p50Ms, p99Ms });

const medianReqPerS: Record<ClosedLoopScenario, number> = {
  baselineA: 10_000, baselineA2: 5000, getContact: 4500, createContact: 2000, baselineE: 4000, baselineE2: 3000, ingestEvent: 2000,
};

/** One run's figures, each chosen on one side of its target. */
const results = {
  closedLoop: Object.fromEntries(Object.entries(medianReqPerS).map(([scenario, reqPerS]) => [scenario, [closedLoopRun(reqPerS, 300)]])),
  medianReqPerS,
  openLoop: {
    getContact: { ...openLoopRun(2500, 3, 9), baselineA2: openLoopRun(2500, 2, 5), baselineA: openLoopRun(2500, 1, 4) },
    ingestEvent: { ...openLoopRun(1500, 5, 30), baselineE2: openLoopRun(1500, 4, 10), baselineA: openLoopRun(1500, 1, 4) },
  },
  eventToEmail: [emailRun(100, 10, 35, 10), emailRun(200, 20, 90, 20)],
  deadWebhook: {
    ratePerS: 100, rounds: 2, connections: { live: 4, dead: 4 },
    variants: { none: variant(10, 30), live: variant(10, 30), dead: variant(11, 40) },
    deadVsNone: { p50: 1.1, p99: 1.33 }, deadVsLive: { p50: 1.1, p99: 1.33 },
  },
  backlog: { automation: drain(900), baselineB: drain(1000) },
  campaign: { send: { campaign: drain(800), workflowsDuring: emailRun(50, 10, 200, 0) }, baselineC: drain(1000) },
  memory: { idleRssMb: { gateway: 100, 'baseline-a2': 500 }, peakRssMb: { gateway: 150, 'baseline-a2': 900 } },
  brokerWaits: [],
} as unknown as BenchResults;

describe('the target table', () => {
  const rows = targetTable(results);
  const targeted = rows.filter((row) => row.target !== '').map((row) => [row.measurement.trim(), row.measured, row.target, row.met]);

  it('holds the throughput rows against A2 and E2, the half-load rows against them, and the email rows against Q', () => {
    expect(targeted).toEqual([
      ['GET contact through gateway → contacts / A2', '4500 req/s', '≥ 80%', 'yes'],
      ['CPU per GET, whole machine', '300 µs', '≤ 600 µs', 'yes'],
      ['POST contact through gateway → contacts / A2', '2000 req/s', '≥ 50%', 'NO'],
      ['POST event through gateway → events → RabbitMQ confirm / E2', '2000 req/s', '≥ 70%', 'NO'],
      ["GET p99 at half of A2's rate / A2's p99 at that rate", '1.8×', '≤ 2×', 'yes'],
      ["POST event p99 at half of E2's rate / E2's p99 at that rate", '3×', '≤ 2×', 'NO'],
      ['p50, through the broker', '10 ms', '≤ 15 ms', 'yes'],
      ['p99, through the broker', '35 ms', '≤ 40 ms', 'yes'],
      ["p99 / Q's p99", '3.5×', '≤ 3×', 'NO'],
      ['p99, through the broker', '90 ms', '≤ 80 ms', 'NO'],
      ['never answering / none, p50', '1.1×', '≤ 1.5×', 'yes'],
      ['dead webhook endpoint / none, p99', '1.33×', '≤ 1.5×', 'yes'],
      ['backlog drain (10000 due sends) / B', '900 emails/s', '≥ 85%', 'yes'],
      ['campaign to 10000 recipients / C', '800 emails/s', '≥ 85%', 'NO'],
      ['event -> email p99 meanwhile', '200 ms', '≤ 1000 ms', 'yes'],
      ['peak RSS gateway under the run (campaign included)', '150 MB', '≤ 200 MB', 'yes'],
      ['idle RSS gateway (peak 150 MB)', '100 MB', '≤ 120 MB', 'yes'],
    ]);
  });

  it('puts the baselines beside the figures: A and A2 throughput, both baselines at the half-load rate, Q beside each email figure', () => {
    const byName = (measurement: string) => rows.filter((row) => row.measurement.trim() === measurement);

    expect(byName('GET contact through gateway → contacts / A2')[0]?.['vs baseline']).toBe('90% of A2 (45% of A)');
    expect(byName('baseline A2: A behind a bare undici hop')[0]?.measured).toBe('5000 req/s (50% of A)');
    expect(byName('p99 open loop at 2500/s')[0]?.['vs baseline']).toBe('A2: 5 ms, A: 4 ms');
    expect(byName('p99 open loop at 1500/s')[0]?.['vs baseline']).toBe('E2: 10 ms, A: 4 ms');
    expect(byName('p50, through the broker').map((row) => row['vs baseline'])).toEqual(['Q: 2 ms', 'Q: 2 ms']);
    expect(byName('p50, through the broker')[1]?.target).toBe('');
  });

  it('holds no baseline process to a service memory target', () => {
    expect(rows.filter((row) => row.measurement.includes('baseline-a2')).map((row) => row.target)).toEqual(['']);
  });
});
