import type { DrainResult } from './drain-result';
import type { SettleWait } from './broker-quiet';
import type { ClosedLoopResult } from './closed-loop';
import type { EventToEmailResult } from './event-to-email';
import type { OpenLoopResult } from './open-loop';

export type ClosedLoopScenario = 'baselineA' | 'getContact' | 'createContact' | 'ingestEvent';

/** Everything one run measured, as written to bench/results/<timestamp>.json. */
export interface BenchResults {
  /** Each closed-loop scenario, one entry per round, in the order they ran. */
  closedLoop: Record<ClosedLoopScenario, ClosedLoopResult[]>;
  /** The median of the rounds' req/s per scenario. */
  medianReqPerS: Record<ClosedLoopScenario, number>;
  openLoop: { getContact: OpenLoopResult; ingestEvent: OpenLoopResult };
  eventToEmail: EventToEmailResult[];
  backlog: { automation: DrainResult; baselineB: DrainResult };
  /** MB per process: VmRSS once started and idle, VmHWM (peak) at the end of the run. */
  memory: { idleRssMb: Record<string, number>; peakRssMb: Record<string, number> };
  /** Before each scenario: how long queued asynchronous work of the previous one took to finish. */
  brokerWaits: SettleWait[];
}
