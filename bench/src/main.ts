// `npm run bench`: the whole stack, started here from the built services, measured against
// baselines run on the same machine in the same run (README.md). Exits 0 when the run measured
// something valid, whether or not the targets are met; non-zero when the run itself failed.
import path from 'node:path';
import { loadBenchConfig } from './bench-config';
import type { BenchResults } from './bench-results';
import { measureBacklogDrain } from './backlog-drain';
import { measureCampaignSend } from './campaign-send';
import { brokerSettler } from './broker-quiet';
import { Cleanup } from './cleanup';
import { startClosedLoopBaselines } from './closed-loop-baselines';
import { runClosedLoopRounds } from './closed-loop-rounds';
import { describeRatios, describeVariant, describeVariantStages, measureDeadWebhook, type WebhookVariant } from './dead-webhook';
import { measureEmailRates } from './email-rates';
import { warmUpSignups } from './event-to-email';
import { loadTargets, withFairBaselines } from './load-targets';
import { measureNodemailerBaseline } from './nodemailer-baseline';
import { openLoopAtHalf } from './open-loop-at-half';
import { createBenchAccount } from './operator-setup';
import { loadAverage, memoryMb } from './proc-stats';
import { startQueueFloor } from './queue-floor';
import { checkResponses } from './response-check';
import { seedContacts } from './seed-contacts';
import { forgetSinkMessages } from './sink-arrivals';
import { startStack } from './start-stack';
import { writeReport } from './write-report';

const log = (text: string) => process.stderr.write(`${text}\n`);
const IDLE_SETTLE_MS = 2000;

async function main(): Promise<boolean> {
  const config = loadBenchConfig();
  const startedAt = new Date();
  const loadAtStart = loadAverage();
  const cleanup = new Cleanup();
  cleanup.onSignals();
  try {
    log('starting the stack...');
    const stack = await startStack(config, cleanup);
    const runId = stack.names.id;
    log(stack.diskProbe.description);
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const idleRssMb: Record<string, number> = {};
    for (const service of stack.services) idleRssMb[service.name] = memoryMb(service.pid, 'VmRSS');

    const account = await createBenchAccount(stack.env);
    const seeded = await seedContacts(stack.env, account.accountId, config.contacts);
    log(
      `run ${runId}: account ${account.accountId}, ${seeded.count} contacts seeded in ${seeded.seconds.toFixed(1)} s`,
    );

    const baselines = await startClosedLoopBaselines({
      env: stack.env,
      seeded,
      amqpUrl: config.amqpUrl,
      brokerNamespace: stack.names.brokerNamespace,
      cleanup,
    });
    const floor = await startQueueFloor({
      amqpUrl: config.amqpUrl,
      namespace: stack.names.brokerNamespace,
      sink: stack.sink,
      smtpPoolSize: config.smtpPoolSize,
      cleanup,
    });
    for (const baseline of [...baselines.processes, floor.process]) idleRssMb[baseline.name] = memoryMb(baseline.pid, 'VmRSS');
    // Q's consumer idles through the closed loops: its memory is reported, not its CPU per request.
    const processes = [...stack.services, ...baselines.processes, floor.process];
    const pids = new Map([...stack.services, ...baselines.processes].map((service) => [service.name, service.pid]));

    const targets = withFairBaselines(loadTargets({
      baselineUrl: baselines.urls.a,
      apiUrl: stack.apiUrl,
      eventsUrl: stack.eventsUrl,
      apiKey: account.apiKey,
      runId,
      seeded,
    }), baselines.urls);
    const problems: string[] = [];
    const settler = brokerSettler(config.amqpUrl, stack.names.brokerNamespace);
    const { closedLoop, medianReqPerS } = await runClosedLoopRounds(config, targets, pids, settler);
    for (const rounds of Object.values(closedLoop)) {
      for (const result of rounds)
        checkResponses(problems, result.scenario, result.requests, result.non2xx, result.errors);
    }

    const diskProbeDirectory = stack.diskProbe.directory;
    const openLoop = { settler, seconds: config.openLoopSeconds, targets, problems, log, diskProbeDirectory };
    const openGet = await openLoopAtHalf(openLoop, 'getContact', medianReqPerS.baselineA2);
    const openEvents = await openLoopAtHalf(openLoop, 'ingestEvent', medianReqPerS.baselineE2);

    // The closed and open loops sent events no workflow matches: the sign-up path (enrolment,
    // rendering, the SMTP pool's connections) runs here for the first time. The same load
    // unrecorded until V8 has optimized it, as the focus run does, so the first rate measures the
    // path and not its start-up.
    log(
      await warmUpSignups({
        sink: stack.sink,
        eventsUrl: stack.eventsUrl,
        apiKey: account.apiKey,
        runId,
        ratePerS: config.emailRates[0]!,
        stragglerWaitMs: config.stragglerWaitMs,
        diskProbeDirectory,
      }),
    );
    const eventToEmail = await measureEmailRates({
      rates: config.emailRates,
      run: {
        sink: stack.sink,
        eventsUrl: stack.eventsUrl,
        apiKey: account.apiKey,
        runId,
        seconds: config.emailSeconds,
        stragglerWaitMs: config.stragglerWaitMs,
        stages: { env: stack.env, accountId: account.accountId },
        diskProbeDirectory,
      },
      floor,
      settler,
      problems,
      log,
    });

    // Issue #22: the same scenario at 100/s with no endpoint, a live one and a dead one, in rounds.
    const deadWebhook = await measureDeadWebhook({
      env: stack.env,
      sink: stack.sink,
      eventsUrl: stack.eventsUrl,
      account,
      runId,
      ratePerS: 100,
      seconds: config.emailSeconds,
      rounds: config.rounds,
      stragglerWaitMs: config.stragglerWaitMs,
      cleanup,
      pids,
      settle: (scenario) => settler.before(scenario),
      diskProbeDirectory,
    });
    for (const [variant, figures] of Object.entries(deadWebhook.variants)) {
      for (const run of figures.runs) {
        checkResponses(problems, `event -> email at 100/s, webhook endpoint ${variant} (ingest)`, run.events - run.errors, run.non2xx, run.errors);
        if (run.missing > 0) problems.push(`event -> email at 100/s, webhook endpoint ${variant}: ${run.missing} emails never arrived`);
      }
      log(describeVariant(variant as WebhookVariant, figures));
      const stages = describeVariantStages(variant as WebhookVariant, figures);
      if (stages) log(stages);
    }
    log(describeRatios(deadWebhook));
    if (deadWebhook.connections.dead === 0) problems.push('dead webhook endpoint: the webhooks service never connected to it');

    forgetSinkMessages(stack.sink);
    await settler.before('backlog drain');
    const automation = await measureBacklogDrain({
      env: stack.env,
      sink: stack.sink,
      account,
      runId,
      count: config.backlog,
    });
    log(
      `backlog drain: ${automation.arrived}/${automation.emails} in ${automation.seconds} s = ${automation.emailsPerS} emails/s`,
    );
    forgetSinkMessages(stack.sink);
    // The drain leaves its facts (email sent, workflow completed) to relay and consume: the
    // baseline waits for that, so it does not share the machine with work billed to the drain.
    await settler.before('baseline B');
    const baselineB = await measureNodemailerBaseline({
      sink: stack.sink,
      runId,
      count: config.backlog,
      maxConnections: config.smtpPoolSize,
    });
    log(
      `baseline B: ${baselineB.arrived}/${baselineB.emails} in ${baselineB.seconds} s = ${baselineB.emailsPerS} emails/s`,
    );
    forgetSinkMessages(stack.sink);
    if (automation.missing > 0)
      problems.push(`backlog drain: ${automation.missing} of ${automation.emails} emails never arrived`);
    if (baselineB.missing > 0)
      problems.push(`baseline B: ${baselineB.missing} of ${baselineB.emails} emails never arrived`);

    await settler.before('campaign send');
    const campaignSend = await measureCampaignSend({
      env: stack.env,
      campaignsUrl: stack.internalUrls.campaigns!,
      eventsUrl: stack.eventsUrl,
      sink: stack.sink,
      account,
      runId,
      recipients: config.campaignRecipients,
      eventsPerS: config.campaignEventsPerS,
      stragglerWaitMs: config.stragglerWaitMs,
    });
    log(
      `campaign: ${campaignSend.campaign.arrived}/${campaignSend.campaign.emails} in ${campaignSend.campaign.seconds} s = ${campaignSend.campaign.emailsPerS} emails/s; ` +
        `workflow emails meanwhile at ${campaignSend.workflowsDuring.ratePerS}/s: p99 ${campaignSend.workflowsDuring.p99Ms.toFixed(1)} ms`,
    );
    forgetSinkMessages(stack.sink);
    await settler.before('baseline C');
    const baselineC = await measureNodemailerBaseline({
      sink: stack.sink,
      runId,
      count: config.campaignRecipients,
      maxConnections: config.smtpPoolSize,
    });
    log(`baseline C: ${baselineC.arrived}/${baselineC.emails} in ${baselineC.seconds} s = ${baselineC.emailsPerS} emails/s`);
    forgetSinkMessages(stack.sink);
    if (campaignSend.campaign.missing > 0)
      problems.push(`campaign: ${campaignSend.campaign.missing} of ${campaignSend.campaign.emails} emails never arrived`);

    await settler.before('the end');
    const deadLettered = Math.max(...settler.waits.map((wait) => wait.deadLettered));
    if (deadLettered > 0) problems.push(`${deadLettered} messages were dead-lettered`);
    const peakRssMb: Record<string, number> = {};
    for (const service of processes) peakRssMb[service.name] = memoryMb(service.pid, 'VmHWM');

    const results: BenchResults = {
      closedLoop,
      medianReqPerS,
      openLoop: { getContact: openGet, ingestEvent: openEvents },
      eventToEmail,
      deadWebhook,
      backlog: { automation, baselineB },
      campaign: { send: campaignSend, baselineC },
      memory: { idleRssMb, peakRssMb },
      brokerWaits: settler.waits,
    };
    const file = await writeReport({ config, results, problems, startedAt, loadAtStart });
    log(`results: ${path.relative(process.cwd(), file)}`);
    for (const problem of problems) log(`INVALID: ${problem}`);
    return problems.length === 0;
  } finally {
    log('cleaning up...');
    await cleanup.runAll();
  }
}

main().then(
  (valid) => process.exit(valid ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(
      `benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
