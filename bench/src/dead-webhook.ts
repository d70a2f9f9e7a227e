import type { ArrivalSink } from './arrival-sink';
import type { Cleanup } from './cleanup';
import { cpuPerRequest, cpuSnapshot, type CpuPerRequest } from './cpu-meter';
import { measureEventToEmail, type EventToEmailResult } from './event-to-email';
import { median } from './percentile';
import { cli } from './operator-setup';
import { forgetSinkMessages } from './sink-arrivals';
import { describeStages } from './stage-breakdown';
import { startDeadReceiver, startLiveReceiver, type BenchReceiver } from './webhook-receivers';

/** Every type a sign-up event causes (a new contact, its email, the run's end), so each event means deliveries. */
const EVENT_TYPES = ['contact.created', 'contact.updated', 'email.sent', 'email.failed', 'workflow.completed'];
const WEBHOOKS_CLI = 'services/webhooks/dist/cli/admin.js';

export type WebhookVariant = 'none' | 'live' | 'dead';
/** Round 1 in this order, round 2 in reverse, and so on: no variant always runs on a warmer stack. */
const VARIANTS: WebhookVariant[] = ['none', 'live', 'dead'];

export interface VariantFigures {
  runs: EventToEmailResult[];
  /** CPU per accepted event of each run, per service and machine-wide (Postgres included): where the time went. */
  cpuPerEvent: CpuPerRequest[];
  /** Medians over the rounds. */
  p50Ms: number;
  p99Ms: number;
}

export interface DeadWebhookResult {
  ratePerS: number;
  rounds: number;
  /** No endpoint; an endpoint answering 204 at once; an endpoint that never answers. */
  variants: Record<WebhookVariant, VariantFigures>;
  /** dead over none (what the issue asks): 1 means the dead endpoint cost event -> email nothing. */
  deadVsNone: { p50: number; p99: number };
  /** dead over live: the deadness alone, with the same webhook traffic. */
  deadVsLive: { p50: number; p99: number };
  /** Connections each receiver accepted: proof the webhooks service was delivering to it. */
  connections: { live: number; dead: number };
}

/**
 * Issue #22: a dead webhook endpoint must not slow event -> email. The sign-up scenario at one rate
 * in rounds of three variants in this run: no endpoint; the account's endpoint on a receiver that
 * answers at once; the endpoint on a socket that accepts and never answers (each attempt waits out
 * its timeout). Both endpoints subscribe to every type the scenario causes; only the one of the
 * variant is enabled while it runs.
 */
export async function measureDeadWebhook(options: {
  env: NodeJS.ProcessEnv;
  sink: ArrivalSink;
  eventsUrl: string;
  account: { accountId: number; apiKey: string };
  runId: string;
  ratePerS: number;
  seconds: number;
  rounds: number;
  stragglerWaitMs: number;
  cleanup: Cleanup;
  /** The services' processes, for CPU per event. */
  pids: ReadonlyMap<string, number>;
  settle: (scenario: string) => Promise<void>;
  /** Probe the disk in this folder during each measured run (`withDiskProbe`). */
  diskProbeDirectory?: string;
}): Promise<DeadWebhookResult> {
  const receivers: Record<'live' | 'dead', BenchReceiver> = { live: await startLiveReceiver(), dead: await startDeadReceiver() };
  options.cleanup.add('webhook receivers', () => Promise.all([receivers.live.close(), receivers.dead.close()]).then(() => undefined));
  const endpointIds: Record<'live' | 'dead', number> = { live: 0, dead: 0 };
  for (const variant of ['live', 'dead'] as const) {
    const created = await cli<{ id: number }>(options.env, WEBHOOKS_CLI, [
      'webhooks', 'create', '--account', String(options.account.accountId), '--url', receivers[variant].url, '--events', EVENT_TYPES.join(','), '--disable',
    ]);
    endpointIds[variant] = created.id;
  }
  const setEnabled = (variant: 'live' | 'dead', enabled: boolean) =>
    cli(options.env, WEBHOOKS_CLI, ['webhooks', 'update', '--id', String(endpointIds[variant]), enabled ? '--enable' : '--disable']);

  const runs: Record<WebhookVariant, EventToEmailResult[]> = { none: [], live: [], dead: [] };
  const cpu: Record<WebhookVariant, CpuPerRequest[]> = { none: [], live: [], dead: [] };
  // One run thrown away first: the variant measured first must not pay for a stack still warming up.
  await options.settle(`event -> email at ${options.ratePerS}/s, webhook warm-up`);
  await measureEventToEmail({
    sink: options.sink, eventsUrl: options.eventsUrl, apiKey: options.account.apiKey, runId: `${options.runId}warmup`,
    ratePerS: options.ratePerS, seconds: options.seconds, stragglerWaitMs: options.stragglerWaitMs,
  });
  for (let round = 0; round < options.rounds; round += 1) {
    for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      if (variant !== 'none') await setEnabled(variant, true);
      forgetSinkMessages(options.sink);
      await options.settle(`event -> email at ${options.ratePerS}/s, webhook endpoint: ${variant} (round ${round + 1})`);
      const before = cpuSnapshot(options.pids);
      const run = await measureEventToEmail({
        sink: options.sink,
        eventsUrl: options.eventsUrl,
        apiKey: options.account.apiKey,
        // Addresses of their own: the welcome workflow sends once per contact.
        runId: `${options.runId}${variant}${round}`,
        ratePerS: options.ratePerS,
        seconds: options.seconds,
        stragglerWaitMs: options.stragglerWaitMs,
        ...(options.diskProbeDirectory === undefined ? {} : { diskProbeDirectory: options.diskProbeDirectory }),
        // Where each variant's sign-ups wait (the ratio alone cannot tell which hop an endpoint
        // slows), read for the last round only: the only one printed, and each read waits 1 s.
        ...(round === options.rounds - 1 ? { stages: { env: options.env, accountId: options.account.accountId } } : {}),
      });
      runs[variant].push(run);
      cpu[variant].push(cpuPerRequest(before, cpuSnapshot(options.pids), run.accepted));
      if (variant !== 'none') await setEnabled(variant, false);
    }
  }
  forgetSinkMessages(options.sink);
  const figures = (variant: WebhookVariant): VariantFigures => ({
    runs: runs[variant],
    cpuPerEvent: cpu[variant],
    p50Ms: median(runs[variant].map((run) => run.p50Ms)),
    p99Ms: median(runs[variant].map((run) => run.p99Ms)),
  });
  const variants = { none: figures('none'), live: figures('live'), dead: figures('dead') };
  return {
    ratePerS: options.ratePerS,
    rounds: options.rounds,
    variants,
    deadVsNone: { p50: variants.dead.p50Ms / variants.none.p50Ms, p99: variants.dead.p99Ms / variants.none.p99Ms },
    deadVsLive: { p50: variants.dead.p50Ms / variants.live.p50Ms, p99: variants.dead.p99Ms / variants.live.p99Ms },
    connections: { live: receivers.live.connections(), dead: receivers.dead.connections() },
  };
}

/** One variant's runs as a log line: latencies per round, webhooks' and the machine's CPU per event. */
export const describeVariant = (variant: WebhookVariant, figures: VariantFigures): string =>
  `event -> email at 100/s, webhook endpoint ${variant}: p50 ${figures.runs.map((run) => run.p50Ms.toFixed(1)).join(' / ')} ms, ` +
  `p99 ${figures.runs.map((run) => run.p99Ms.toFixed(1)).join(' / ')} ms; ` +
  `CPU µs/event webhooks ${figures.cpuPerEvent.map((cpu) => cpu.processes.webhooks).join(' / ')}, machine ${figures.cpuPerEvent.map((cpu) => cpu.machine).join(' / ')}` +
  (figures.runs.every((run) => run.diskFlushes) ? `; worst disk flush ${figures.runs.map((run) => run.diskFlushes?.worstMs.toFixed(1)).join(' / ')} ms` : '');

/** A variant's per-stage breakdown, from its last round. */
export function describeVariantStages(variant: WebhookVariant, figures: VariantFigures): string | undefined {
  const stages = figures.runs.at(-1)?.stages;
  return stages && `webhook endpoint ${variant}, last round:\n${describeStages(stages)}`;
}

/** The ratios the issue asks about, and the connections that prove both receivers were used. */
export const describeRatios = (result: DeadWebhookResult): string =>
  `dead webhook endpoint: vs none p50 ${result.deadVsNone.p50.toFixed(2)}x p99 ${result.deadVsNone.p99.toFixed(2)}x; ` +
  `vs live p50 ${result.deadVsLive.p50.toFixed(2)}x p99 ${result.deadVsLive.p99.toFixed(2)}x (connections: live ${result.connections.live}, dead ${result.connections.dead})`;
