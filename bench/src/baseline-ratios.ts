import type { ClosedLoopScenario } from './bench-results';
import { round } from './percentile';

/** A figure against its same-run baseline: the ratio (a percentage for throughput) and whether it meets its target. */
export interface Ratio {
  value: number;
  baseline: number;
  ratio: number;
  met: boolean;
}

/**
 * Each closed-loop scenario's fair baseline, the same hops without the product's work, and the
 * share of that baseline's req/s it must reach.
 */
export const THROUGHPUT_TARGETS = {
  getContact: { figure: 'GET contact through gateway → contacts', baseline: 'baselineA2', baselineName: 'A2', minimumPercent: 80 },
  createContact: { figure: 'POST contact through gateway → contacts', baseline: 'baselineA2', baselineName: 'A2', minimumPercent: 50 },
  ingestEvent: { figure: 'POST event through gateway → events → RabbitMQ confirm', baseline: 'baselineE2', baselineName: 'E2', minimumPercent: 70 },
} as const satisfies Record<string, { figure: string; baseline: ClosedLoopScenario; baselineName: string; minimumPercent: number }>;
export type ThroughputScenario = keyof typeof THROUGHPUT_TARGETS;

/** The half-load p99 may be at most this many times its fair baseline's at the same rate. */
export const HALF_LOAD_MAX_P99_RATIO = 2;

/** Event -> email through the broker, per rate: absolute p50/p99 and, at 100/s, p99 against Q's at that rate. */
export const EMAIL_TARGETS: Readonly<Record<number, { maxP50Ms?: number; maxP99Ms: number; maxP99VsQueueFloor?: number }>> = {
  100: { maxP50Ms: 15, maxP99Ms: 40, maxP99VsQueueFloor: 3 },
  200: { maxP99Ms: 80 },
};

/** The scenario's median req/s as a percentage of its fair baseline's. */
export function throughputRatio(medianReqPerS: Readonly<Record<ClosedLoopScenario, number>>, scenario: ThroughputScenario): Ratio {
  const { baseline, minimumPercent } = THROUGHPUT_TARGETS[scenario];
  const value = medianReqPerS[scenario];
  const ratio = (100 * value) / medianReqPerS[baseline];
  return { value, baseline: medianReqPerS[baseline], ratio, met: ratio >= minimumPercent };
}

/** A p99 over its baseline's at the same rate, held to `maximum` times. */
export function p99Ratio(p99Ms: number, baselineP99Ms: number, maximum: number): Ratio {
  const ratio = p99Ms / baselineP99Ms;
  return { value: p99Ms, baseline: baselineP99Ms, ratio, met: ratio <= maximum };
}

/** One target of an event -> email rate: what is compared, the measured figure, the target, and whether it is met. */
export interface EmailCheck {
  figure: string;
  measured: number;
  target: string;
  met: boolean;
}

/** The targets an event -> email rate has (none for a rate the issue sets none for). */
export function emailChecks(run: { ratePerS: number; p50Ms: number; p99Ms: number; queueFloor: { p99Ms: number } }): EmailCheck[] {
  const targets = EMAIL_TARGETS[run.ratePerS];
  if (!targets) return [];
  const checks: EmailCheck[] = [];
  if (targets.maxP50Ms !== undefined) checks.push({ figure: 'p50', measured: run.p50Ms, target: `≤ ${targets.maxP50Ms} ms`, met: run.p50Ms <= targets.maxP50Ms });
  checks.push({ figure: 'p99', measured: run.p99Ms, target: `≤ ${targets.maxP99Ms} ms`, met: run.p99Ms <= targets.maxP99Ms });
  if (targets.maxP99VsQueueFloor !== undefined) {
    const { ratio, met } = p99Ratio(run.p99Ms, run.queueFloor.p99Ms, targets.maxP99VsQueueFloor);
    checks.push({ figure: "p99 / Q's p99", measured: ratio, target: `≤ ${targets.maxP99VsQueueFloor}×`, met });
  }
  return checks;
}

const metOrNot = (met: boolean) => (met ? 'met' : 'NOT met');

/** A focus run's throughput line: the scenario against its fair baseline, and the target. */
export function describeThroughput(medianReqPerS: Readonly<Record<ClosedLoopScenario, number>>, scenario: ThroughputScenario): string {
  const { figure, baselineName, minimumPercent } = THROUGHPUT_TARGETS[scenario];
  const { value, baseline, ratio, met } = throughputRatio(medianReqPerS, scenario);
  return `${figure} / ${baselineName}: ${value} / ${baseline} req/s = ${round(ratio, 0)}% (target ≥ ${minimumPercent}%: ${metOrNot(met)})`;
}

/** A focus run's half-load line: the scenario's p99 over its fair baseline's at the same rate. */
export function describeHalfLoad(label: string, baselineName: string, ratePerS: number, p99Ms: number, baselineP99Ms: number): string {
  const { ratio, met } = p99Ratio(p99Ms, baselineP99Ms, HALF_LOAD_MAX_P99_RATIO);
  return `${label} p99 at ${ratePerS}/s (half of ${baselineName}'s rate) / ${baselineName}'s p99 at that rate: ${p99Ms.toFixed(1)} / ${baselineP99Ms.toFixed(1)} ms = ${round(ratio, 2)}× (target ≤ ${HALF_LOAD_MAX_P99_RATIO}×: ${metOrNot(met)})`;
}

/** A focus run's event -> email lines: each target of its rate, Q's figures beside. */
export function describeEmailChecks(run: { ratePerS: number; p50Ms: number; p99Ms: number; queueFloor: { p50Ms: number; p99Ms: number } }): string {
  const checks = emailChecks(run);
  const measured = (check: EmailCheck) => (check.figure.includes('/') ? `${round(check.measured, 2)}×` : `${check.measured.toFixed(1)} ms`);
  const lines = checks.map((check) => `  ${check.figure} ${measured(check)} (target ${check.target}: ${metOrNot(check.met)})`);
  return [
    `event -> email at ${run.ratePerS}/s: p50 ${run.p50Ms.toFixed(1)} ms, p99 ${run.p99Ms.toFixed(1)} ms; Q at that rate: p50 ${run.queueFloor.p50Ms.toFixed(1)} ms, p99 ${run.queueFloor.p99Ms.toFixed(1)} ms`,
    ...lines,
  ].join('\n');
}
