import type { DrainResult } from './drain-result';
import type { CampaignSendResult } from './campaign-send';
import type { SettleWait } from './broker-quiet';
import type { ClosedLoopResult } from './closed-loop';
import type { DeadWebhookResult } from './dead-webhook';
import type { EmailRateResult } from './email-rates';
import type { HalfLoadResult } from './open-loop-at-half';

export type ClosedLoopScenario = 'baselineA' | 'baselineA2' | 'getContact' | 'createContact' | 'baselineE' | 'baselineE2' | 'ingestEvent';

/** Everything one run measured, as written to bench/results/<timestamp>.json. */
export interface BenchResults {
  /** Each closed-loop scenario, one entry per round, in the order they ran. */
  closedLoop: Record<ClosedLoopScenario, ClosedLoopResult[]>;
  /** The median of the rounds' req/s per scenario. */
  medianReqPerS: Record<ClosedLoopScenario, number>;
  /** Each at half its fair baseline's (A2's, E2's) throughput, with the same loop against that baseline and baseline A. */
  openLoop: { getContact: HalfLoadResult<'getContact'>; ingestEvent: HalfLoadResult<'ingestEvent'> };
  /** Each rate of event -> email, with baseline Q (one broker hop and SMTP) measured right after at that rate. */
  eventToEmail: EmailRateResult[];
  /** Issue #22: event -> email with no webhook endpoint, then with one that never answers. */
  deadWebhook: DeadWebhookResult;
  backlog: { automation: DrainResult; baselineB: DrainResult };
  /** Issue #19: a campaign against nodemailer alone with as many emails (baseline C). */
  campaign: { send: CampaignSendResult; baselineC: DrainResult };
  /** MB per process: VmRSS once started and idle, VmHWM (peak) at the end of the run. */
  memory: { idleRssMb: Record<string, number>; peakRssMb: Record<string, number> };
  /** Before each scenario: how long queued asynchronous work of the previous one took to finish. */
  brokerWaits: SettleWait[];
}
