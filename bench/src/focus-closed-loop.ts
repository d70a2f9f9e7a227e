import type { FocusContext } from './focus-context';
import { startBaselineA } from './baseline-a';
import type { ClosedLoopScenario } from './bench-results';
import type { Cleanup } from './cleanup';
import { runClosedLoopRounds } from './closed-loop-rounds';
import { loadTargets } from './load-targets';
import { hasHalfLoadRow, openLoopAtHalf } from './open-loop-at-half';
import { checkResponses } from './response-check';
import { seedContacts } from './seed-contacts';

/** The focus names of the closed-loop scenarios and what `npm run bench` calls them. */
export const CLOSED_LOOP_FOCUS = {
  get: 'getContact',
  'post-contact': 'createContact',
  'post-event': 'ingestEvent',
} as const satisfies Record<string, ClosedLoopScenario>;
export type ClosedLoopFocus = keyof typeof CLOSED_LOOP_FOCUS;

/**
 * One closed-loop scenario as `npm run bench` runs it (the same seeded contacts, targets, warm-up
 * and rounds), interleaved with baseline A of the same run; resolves to the problems it saw.
 */
export async function focusClosedLoop(options: FocusContext & { cleanup: Cleanup; focus: ClosedLoopFocus }): Promise<string[]> {
  const { config, stack, log } = options;
  const scenario = CLOSED_LOOP_FOCUS[options.focus];
  const seeded = await seedContacts(stack.env, options.account.accountId, config.contacts);
  log(`${seeded.count} contacts seeded in ${seeded.seconds.toFixed(1)} s`);
  const baseline = await startBaselineA(stack.env, seeded, options.cleanup);
  const processes = [...stack.services, baseline.process];
  const pids = new Map(processes.map((service) => [service.name, service.pid]));
  const targets = loadTargets({
    baselineUrl: baseline.url,
    apiUrl: stack.apiUrl,
    eventsUrl: stack.eventsUrl,
    apiKey: options.account.apiKey,
    runId: stack.names.id,
    seeded,
  });
  const { closedLoop, medianReqPerS } = await runClosedLoopRounds(config, targets, pids, options.settler, [scenario]);
  const problems: string[] = [];
  for (const result of closedLoop[scenario]) checkResponses(problems, result.scenario, result.requests, result.non2xx, result.errors);
  const a = medianReqPerS.baselineA;
  const measured = medianReqPerS[scenario];
  log(`${targets[scenario].name}: median ${measured} req/s, baseline A ${a} req/s: ${Math.round((100 * measured) / a)}% of A`);
  const last = closedLoop[scenario].at(-1);
  if (last) log(`CPU µs/request, last round: ${JSON.stringify(last.cpuMicrosPerRequest)}`);
  // The full run's latency row of the same scenario, where it has one.
  if (hasHalfLoadRow(scenario)) {
    log(stack.diskProbe.description);
    const openLoop = { settler: options.settler, seconds: config.openLoopSeconds, targets, problems, log, diskProbeDirectory: stack.diskProbe.directory };
    await openLoopAtHalf(openLoop, scenario, measured);
  }
  return problems;
}
