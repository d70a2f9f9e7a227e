import type { ClosedLoopScenario } from '../src/bench-results';
import {
  describeEmailChecks,
  describeHalfLoad,
  describeThroughput,
  emailChecks,
  p99Ratio,
  throughputRatio,
} from '../src/baseline-ratios';

const reqPerS = (figures: Partial<Record<ClosedLoopScenario, number>>): Record<ClosedLoopScenario, number> => ({
  baselineA: Number.NaN,
  baselineA2: Number.NaN,
  getContact: Number.NaN,
  createContact: Number.NaN,
  baselineE: Number.NaN,
  baselineE2: Number.NaN,
  ingestEvent: Number.NaN,
  ...figures,
});

describe('throughput against the fair baseline', () => {
  it('compares GET and POST contact with A2, and POST event with E2, each against its own share', () => {
    const figures = reqPerS({ baselineA: 9000, baselineA2: 4000, getContact: 3200, createContact: 1999, baselineE2: 2000, ingestEvent: 1400 });

    expect(throughputRatio(figures, 'getContact')).toEqual({ value: 3200, baseline: 4000, ratio: 80, met: true });
    expect(throughputRatio(figures, 'createContact')).toMatchObject({ baseline: 4000, met: false });
    expect(throughputRatio(figures, 'ingestEvent')).toEqual({ value: 1400, baseline: 2000, ratio: 70, met: true });
  });

  it('when the baseline was not measured, the target is not met', () => {
    expect(throughputRatio(reqPerS({ getContact: 3000 }), 'getContact').met).toBe(false);
  });

  it('prints the figure, both rates, the percentage and the verdict', () => {
    expect(describeThroughput(reqPerS({ baselineA2: 4000, getContact: 3000 }), 'getContact')).toBe(
      'GET contact through gateway → contacts / A2: 3000 / 4000 req/s = 75% (target ≥ 80%: NOT met)',
    );
  });
});

describe('p99 against a baseline at the same rate', () => {
  it('meets a maximum ratio up to and including it', () => {
    expect(p99Ratio(10, 5, 2)).toEqual({ value: 10, baseline: 5, ratio: 2, met: true });
    expect(p99Ratio(10.1, 5, 2).met).toBe(false);
  });

  it('prints the half-load line against the fair baseline', () => {
    expect(describeHalfLoad('GET', 'A2', 1500, 6, 4)).toBe(
      "GET p99 at 1500/s (half of A2's rate) / A2's p99 at that rate: 6.0 / 4.0 ms = 1.5× (target ≤ 2×: met)",
    );
  });
});

describe('event -> email targets', () => {
  const queueFloor = { p50Ms: 3, p99Ms: 10 };

  it('at 100/s: p50 at most 15 ms, p99 at most 40 ms and at most 3 times Q’s p99', () => {
    const checks = emailChecks({ ratePerS: 100, p50Ms: 12, p99Ms: 35, queueFloor });

    expect(checks).toEqual([
      { figure: 'p50', measured: 12, target: '≤ 15 ms', met: true },
      { figure: 'p99', measured: 35, target: '≤ 40 ms', met: true },
      { figure: "p99 / Q's p99", measured: 3.5, target: '≤ 3×', met: false },
    ]);
  });

  it('at 200/s: p99 at most 80 ms, no other target', () => {
    expect(emailChecks({ ratePerS: 200, p50Ms: 50, p99Ms: 81, queueFloor })).toEqual([
      { figure: 'p99', measured: 81, target: '≤ 80 ms', met: false },
    ]);
  });

  it('a rate the issue sets no target for has none', () => {
    expect(emailChecks({ ratePerS: 50, p50Ms: 1, p99Ms: 2, queueFloor })).toEqual([]);
  });

  it('when Q measured nothing, the ratio is not met', () => {
    const ratio = emailChecks({ ratePerS: 100, p50Ms: 1, p99Ms: 2, queueFloor: { p99Ms: Number.NaN } }).at(-1);
    expect(ratio?.met).toBe(false);
  });

  it('prints the rate, Q beside it, and one line per target', () => {
    expect(describeEmailChecks({ ratePerS: 100, p50Ms: 12, p99Ms: 25, queueFloor })).toBe(
      [
        'event -> email at 100/s: p50 12.0 ms, p99 25.0 ms; Q at that rate: p50 3.0 ms, p99 10.0 ms',
        '  p50 12.0 ms (target ≤ 15 ms: met)',
        '  p99 25.0 ms (target ≤ 40 ms: met)',
        "  p99 / Q's p99 2.5× (target ≤ 3×: met)",
      ].join('\n'),
    );
  });
});
