import type { FocusContext } from './focus-context';
import { describeHalfLoad, describeThroughput, THROUGHPUT_TARGETS } from './baseline-ratios';
import type { ClosedLoopScenario } from './bench-results';
import type { Cleanup } from './cleanup';
import { startClosedLoopBaselines } from './closed-loop-baselines';
import { runClosedLoopRounds } from './closed-loop-rounds';
import { loadTargets, withFairBaselines } from './load-targets';
import { fairBaselineRun, halfLoadBaselineOf, hasHalfLoadRow, openLoopAtHalf } from './open-loop-at-half';
import { checkResponses } from './response-check';
import { seedContacts } from './seed-contacts';

/** The focus names of the closed-loop scenarios and what `npm run bench` calls them. */
export const CLOSED_LOOP_FOCUS = {
  get: 'getContact',
  'post-contact': 'createContact',
  'post-event': 'ingestEvent',
} as const satisfies Record<string, ClosedLoopScenario>;
export type ClosedLoopFocus = keyof typeof CLOSED_LOOP_FOCUS;

/** The baselines measured with each scenario: its fair baseline and the one that baseline stands in front of. */
const FOCUS_BASELINES = {
  getContact: ['baselineA', 'baselineA2'],
  createContact: ['baselineA', 'baselineA2'],
  ingestEvent: ['baselineE', 'baselineE2'],
} as const satisfies Record<(typeof CLOSED_LOOP_FOCUS)[ClosedLoopFocus], readonly ClosedLoopScenario[]>;

/**
 * One closed-loop scenario as `npm run bench` runs it (the same seeded contacts, targets, warm-up
 * and rounds), interleaved with its baselines of the same run (A and A2, or E and E2), and its
 * half-load row where it has one; resolves to the problems it saw.
 */
export async function focusClosedLoop(options: FocusContext & { cleanup: Cleanup; focus: ClosedLoopFocus }): Promise<string[]> {
  const { config, stack, log } = options;
  const scenario = CLOSED_LOOP_FOCUS[options.focus];
  const seeded = await seedContacts(stack.env, options.account.accountId, config.contacts);
  log(`${seeded.count} contacts seeded in ${seeded.seconds.toFixed(1)} s`);
  const baselines = await startClosedLoopBaselines({
    env: stack.env,
    seeded,
    amqpUrl: config.amqpUrl,
    brokerNamespace: stack.names.brokerNamespace,
    cleanup: options.cleanup,
  });
  const processes = [...stack.services, ...baselines.processes];
  const pids = new Map(processes.map((service) => [service.name, service.pid]));
  const targets = withFairBaselines(
    loadTargets({
      baselineUrl: baselines.urls.a,
      apiUrl: stack.apiUrl,
      eventsUrl: stack.eventsUrl,
      apiKey: options.account.apiKey,
      runId: stack.names.id,
      seeded,
    }),
    baselines.urls,
  );
  const measuredScenarios = [...FOCUS_BASELINES[scenario], scenario];
  const { closedLoop, medianReqPerS } = await runClosedLoopRounds(config, targets, pids, options.settler, measuredScenarios);
  const problems: string[] = [];
  for (const measured of measuredScenarios) {
    for (const result of closedLoop[measured]) checkResponses(problems, result.scenario, result.requests, result.non2xx, result.errors);
    const last = closedLoop[measured].at(-1);
    if (last) log(`${last.scenario}: median ${medianReqPerS[measured]} req/s; CPU µs/request, last round: ${JSON.stringify(last.cpuMicrosPerRequest)}`);
  }
  log(describeThroughput(medianReqPerS, scenario));
  // The full run's latency row of the same scenario, where it has one: at half its fair baseline's rate.
  if (hasHalfLoadRow(scenario)) {
    log(stack.diskProbe.description);
    const openLoop = { settler: options.settler, seconds: config.openLoopSeconds, targets, problems, log, diskProbeDirectory: stack.diskProbe.directory };
    const result = await openLoopAtHalf(openLoop, scenario, medianReqPerS[halfLoadBaselineOf(scenario)]);
    const label = scenario === 'getContact' ? 'GET' : 'POST event';
    log(describeHalfLoad(label, THROUGHPUT_TARGETS[scenario].baselineName, result.ratePerS, result.p99Ms, fairBaselineRun(scenario, result).p99Ms));
  }
  return problems;
}
