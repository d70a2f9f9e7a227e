import type { FocusContext } from './focus-context';
import { startBaselineA } from './baseline-a';
import type { Cleanup } from './cleanup';
import { runInterleavedRounds } from './interleaved-rounds';
import { checkListAnswers, listTargets } from './list-targets';
import { loadTargets } from './load-targets';
import { median } from './percentile';
import { checkResponses } from './response-check';
import { seedContacts } from './seed-contacts';

/**
 * The contact list through the gateway on the account holding the seeded contacts (first page of
 * 100, a search, page 50 of the subscribed), each in closed loop with warm-up and BENCH_ROUNDS
 * rounds interleaved with baseline A of the same run; resolves to the problems it saw.
 */
export async function focusList(options: FocusContext & { cleanup: Cleanup }): Promise<string[]> {
  const { config, stack, log } = options;
  const seeded = await seedContacts(stack.env, options.account.accountId, config.contacts);
  log(`${seeded.count} contacts seeded in ${seeded.seconds.toFixed(1)} s`);
  const baseline = await startBaselineA(stack.env, seeded, options.cleanup);
  const pids = new Map([...stack.services, baseline.process].map((service) => [service.name, service.pid]));
  const { baselineA } = loadTargets({
    baselineUrl: baseline.url,
    apiUrl: stack.apiUrl,
    eventsUrl: stack.eventsUrl,
    apiKey: options.account.apiKey,
    runId: stack.names.id,
    seeded,
  });
  const reads = listTargets({ apiUrl: stack.apiUrl, apiKey: options.account.apiKey });
  const problems: string[] = [];
  await checkListAnswers(reads, problems);
  const targets = [baselineA, ...reads];
  const rounds = await runInterleavedRounds(config, targets, pids, options.settler, log);
  const medianOf = (results: { reqPerS: number }[]) =>
    Math.round(median(results.map((result) => result.reqPerS)));
  const a = medianOf(rounds[0]!);
  for (const [index, target] of targets.entries()) {
    const results = rounds[index]!;
    for (const result of results)
      checkResponses(problems, result.scenario, result.requests, result.non2xx, result.errors);
    const p50 = median(results.map((result) => result.p50Ms));
    const p99 = median(results.map((result) => result.p99Ms));
    const measured = medianOf(results);
    const ofA = index === 0 ? '' : `: ${Math.round((100 * measured) / a)}% of A`;
    log(`${target.name}: median ${measured} req/s (p50 ${p50} ms, p99 ${p99} ms)${ofA}`);
    const last = results.at(-1);
    if (last) log(`  CPU µs/request, last round: ${JSON.stringify(last.cpuMicrosPerRequest)}`);
  }
  return problems;
}
