// `npm run bench:focus -- <scenario>`: one scenario of `npm run bench` on a fresh stack, with its own
// same-run comparison, for working on one figure without the whole run. The full benchmark stays the
// record: figures quoted anywhere come from `npm run bench`.
import { loadBenchConfig } from './bench-config';
import { brokerSettler } from './broker-quiet';
import { measureCampaignSend } from './campaign-send';
import { measureEventToEmail } from './event-to-email';
import { Cleanup } from './cleanup';
import { describeRatios, describeVariant, describeVariantStages, measureDeadWebhook, type WebhookVariant } from './dead-webhook';
import { CLOSED_LOOP_FOCUS, focusClosedLoop, type ClosedLoopFocus } from './focus-closed-loop';
import { focusDrain } from './focus-drain';
import { focusEmail } from './focus-email';
import { focusList } from './focus-list';
import { focusSegment } from './focus-segment';
import { measureNodemailerBaseline } from './nodemailer-baseline';
import { createBenchAccount } from './operator-setup';
import { memoryMb } from './proc-stats';
import { forgetSinkMessages } from './sink-arrivals';
import { startStack } from './start-stack';

const SCENARIOS = ['webhook', 'campaign', 'email', 'drain', 'list', 'segment', ...(Object.keys(CLOSED_LOOP_FOCUS) as ClosedLoopFocus[])] as const;
type Scenario = (typeof SCENARIOS)[number];
const log = (text: string) => process.stderr.write(`${text}\n`);
const isClosedLoop = (scenario: Scenario): scenario is ClosedLoopFocus => scenario in CLOSED_LOOP_FOCUS;

/** Resolves to the problems that make the run's figures wrong (as `npm run bench` lists them). */
async function main(scenario: Scenario): Promise<string[]> {
  const config = loadBenchConfig();
  const cleanup = new Cleanup();
  cleanup.onSignals();
  try {
    const stack = await startStack(config, cleanup);
    const account = await createBenchAccount(stack.env);
    const settler = brokerSettler(config.amqpUrl, stack.names.brokerNamespace);
    const pids = new Map(stack.services.map((service) => [service.name, service.pid]));
    if (isClosedLoop(scenario)) return await focusClosedLoop({ config, stack, account, cleanup, settler, focus: scenario, log });
    if (scenario === 'list') return await focusList({ config, stack, account, cleanup, settler, log });
    if (scenario === 'segment') return await focusSegment({ config, stack, account, cleanup, settler, log });
    if (scenario === 'email') return await focusEmail({ config, stack, account, cleanup, settler, log });
    if (scenario === 'drain') return await focusDrain({ config, stack, account, settler, log, pids });
    if (scenario === 'webhook') {
      const result = await measureDeadWebhook({
        env: stack.env, sink: stack.sink, eventsUrl: stack.eventsUrl, account, runId: stack.names.id, ratePerS: 100,
        seconds: config.emailSeconds, rounds: config.rounds, stragglerWaitMs: config.stragglerWaitMs, cleanup, pids,
        settle: (name) => settler.before(name),
      });
      for (const [variant, figures] of Object.entries(result.variants)) {
        log(`${variant} CPU µs/event per process, last round: ${JSON.stringify(figures.cpuPerEvent.at(-1)?.processes)}`);
        log(describeVariant(variant as WebhookVariant, figures));
        const stages = describeVariantStages(variant as WebhookVariant, figures);
        if (stages) log(stages);
      }
      log(describeRatios(result));
    } else {
      // The full benchmark sends workflow emails in earlier scenarios; here a few seconds of them
      // warm the stack first, or the campaign's workflow latency would include the services' JIT.
      await measureEventToEmail({
        sink: stack.sink, eventsUrl: stack.eventsUrl, apiKey: account.apiKey, runId: `${stack.names.id}.warm-up`,
        ratePerS: config.campaignEventsPerS, seconds: 5, stragglerWaitMs: config.stragglerWaitMs,
      });
      forgetSinkMessages(stack.sink);
      await settler.before('campaign send');
      const send = await measureCampaignSend({
        env: stack.env, campaignsUrl: stack.internalUrls.campaigns!, eventsUrl: stack.eventsUrl, sink: stack.sink, account,
        runId: stack.names.id, recipients: config.campaignRecipients, eventsPerS: config.campaignEventsPerS, stragglerWaitMs: config.stragglerWaitMs,
      });
      forgetSinkMessages(stack.sink);
      await settler.before('baseline C');
      const baseline = await measureNodemailerBaseline({ sink: stack.sink, runId: stack.names.id, count: config.campaignRecipients, maxConnections: config.smtpPoolSize });
      log(`campaign ${send.campaign.emailsPerS} emails/s (${send.campaign.arrived}/${send.campaign.emails}), nodemailer ${baseline.emailsPerS}/s: ` +
        `${Math.round((100 * send.campaign.emailsPerS) / baseline.emailsPerS)}%; workflow p99 meanwhile ${send.workflowsDuring.p99Ms.toFixed(1)} ms`);
      log(`peak RSS MB: ${stack.services.map((service) => `${service.name} ${memoryMb(service.pid, 'VmHWM')}`).join(', ')}`);
    }
    return [];
  } finally {
    await cleanup.runAll();
  }
}

const scenario = process.argv[2];
if (!SCENARIOS.includes(scenario as Scenario)) {
  log(`usage: npm run bench:focus -- ${SCENARIOS.join('|')}`);
  process.exit(2);
}
main(scenario as Scenario).then(
  (problems) => {
    for (const problem of problems) log(`INVALID: ${problem}`);
    process.exit(problems.length === 0 ? 0 : 1);
  },
  (error: unknown) => {
    log(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
