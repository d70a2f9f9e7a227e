import type { FocusContext } from './focus-context';
import { describeEmailChecks } from './baseline-ratios';
import type { Cleanup } from './cleanup';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter';
import { checkQueueFloor } from './email-rates';
import { describeEventToEmail, measureEventToEmail, warmUpSignups } from './event-to-email';
import { startQueueFloor } from './queue-floor';
import { checkResponses } from './response-check';
import { seedContacts } from './seed-contacts';
import { forgetSinkMessages } from './sink-arrivals';
import { describeStages } from './stage-breakdown';

/**
 * Event -> email at BENCH_FOCUS_EMAIL_RATE a second (100) for BENCH_EMAIL_SECONDS with its per-stage breakdown, on an
 * account holding the seeded contacts and after the same warm-up (`warmUpSignups`), as the full run does before its first rate;
 * then baseline Q at that rate, and the rate's targets against it.
 */
export async function focusEmail(options: FocusContext & { cleanup: Cleanup }): Promise<string[]> {
  const { config, stack, account, log } = options;
  const rate = config.focusEmailRatePerS;
  const common = {
    sink: stack.sink, eventsUrl: stack.eventsUrl, apiKey: account.apiKey, ratePerS: rate, stragglerWaitMs: config.stragglerWaitMs,
    diskProbeDirectory: stack.diskProbe.directory,
  };
  log(stack.diskProbe.description);
  // The account the full run signs up on holds the seeded contacts, analyzed: without them the
  // contacts would plan its lookups on an empty table and scan the account (docs/adr/0044-benchmark-method.md).
  const seeded = await seedContacts(stack.env, account.accountId, config.contacts);
  log(`${seeded.count} contacts seeded in ${seeded.seconds.toFixed(1)} s`);
  log(await warmUpSignups({ ...common, runId: stack.names.id }));
  forgetSinkMessages(stack.sink);
  await options.settler.before(`event -> email at ${rate}/s`);
  const pids = new Map(stack.services.map((service) => [service.name, service.pid]));
  const before = cpuSnapshot(pids);
  const run = await measureEventToEmail({
    ...common,
    runId: stack.names.id,
    seconds: config.emailSeconds,
    stages: { env: stack.env, accountId: account.accountId },
  });
  // Until the broker is quiet again: the facts each email causes are billed to it too.
  await options.settler.before('the end');
  const cpu = cpuPerRequest(before, cpuSnapshot(pids), run.accepted);
  forgetSinkMessages(stack.sink);
  const problems: string[] = [];
  checkResponses(problems, `event -> email at ${rate}/s (ingest)`, run.events - run.errors, run.non2xx, run.errors);
  if (run.missing > 0) problems.push(`event -> email at ${rate}/s: ${run.missing} emails never arrived`);
  log(describeEventToEmail(run));
  if (run.stages) log(describeStages(run.stages));
  log(`CPU µs/event: ${JSON.stringify(cpu)}`);
  const floor = await startQueueFloor({
    amqpUrl: config.amqpUrl,
    namespace: stack.names.brokerNamespace,
    sink: stack.sink,
    smtpPoolSize: config.smtpPoolSize,
    cleanup: options.cleanup,
  });
  const queueFloor = await floor.measure({
    ratePerS: rate, seconds: config.emailSeconds, runId: stack.names.id, stragglerWaitMs: config.stragglerWaitMs, log, diskProbeDirectory: stack.diskProbe.directory,
  });
  forgetSinkMessages(stack.sink);
  checkQueueFloor(problems, queueFloor);
  log(describeEmailChecks({ ...run, queueFloor }));
  return problems;
}
