import type { BenchResults } from './bench-results';
import { emailChecks, HALF_LOAD_MAX_P99_RATIO, p99Ratio, THROUGHPUT_TARGETS, throughputRatio, type ThroughputScenario } from './baseline-ratios';
import type { DiskFlushFigures } from './disk-flush-probe';
import { fairBaselineRun, type HalfLoadResult, type HalfLoadScenario } from './open-loop-at-half';
import { median, round } from './percentile';
import { isBaselineProcess } from './service-process';

/** One line of the printed table: a figure, its same-run baseline ratio and the target. */
export interface TableRow {
  measurement: string;
  measured: string;
  'vs baseline': string;
  target: string;
  met: string;
}

const percentOf = (value: number, baseline: number) => (100 * value) / baseline;
const yesNo = (met: boolean) => (met ? 'yes' : 'NO');
const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${round(value, 1)} ms`);

function ratioRow(
  measurement: string,
  value: number,
  unit: string,
  baseline: number,
  baselineName: string,
  minimumPercent: number,
): TableRow {
  const percent = percentOf(value, baseline);
  return {
    measurement: `${measurement} / ${baselineName}`,
    measured: `${value} ${unit}`,
    'vs baseline': `${round(percent, 0)}% of ${baselineName}`,
    target: `≥ ${minimumPercent}%`,
    met: yesNo(percent >= minimumPercent),
  };
}

function latencyRow(measurement: string, value: number, maximumMs?: number, beside = ''): TableRow {
  return {
    measurement,
    measured: ms(value),
    'vs baseline': beside,
    target: maximumMs === undefined ? '' : `≤ ${maximumMs} ms`,
    met: maximumMs === undefined ? '' : yesNo(value <= maximumMs),
  };
}

/** A closed-loop scenario's req/s against its fair baseline's (A2, E2), with A's share beside. */
function throughputRow(results: BenchResults, scenario: ThroughputScenario): TableRow {
  const { figure, baselineName, minimumPercent } = THROUGHPUT_TARGETS[scenario];
  const { value, ratio, met } = throughputRatio(results.medianReqPerS, scenario);
  return {
    measurement: `${figure} / ${baselineName}`,
    measured: `${value} req/s`,
    'vs baseline': `${round(ratio, 0)}% of ${baselineName} (${round(percentOf(value, results.medianReqPerS.baselineA), 0)}% of A)`,
    target: `≥ ${minimumPercent}%`,
    met: yesNo(met),
  };
}

const info = (measurement: string, measured: string): TableRow => ({
  measurement,
  measured,
  'vs baseline': '',
  target: '',
  met: '',
});

/** The slowest disk flush while a latency window ran, when it was probed: a stall there shows in its p99. */
const diskFlushRows = (diskFlushes: DiskFlushFigures | undefined, label = '  worst disk flush meanwhile'): TableRow[] =>
  diskFlushes ? [info(label, `${ms(diskFlushes.worstMs)} (of ${diskFlushes.flushes})`)] : [];

/** A half-load open loop: its p99 over its fair baseline's at the same rate (the target), then p50 and p99 beside both baselines'. */
function halfLoadRows<S extends HalfLoadScenario>(label: string, scenario: S, result: HalfLoadResult<S>): TableRow[] {
  const fair = fairBaselineRun(scenario, result);
  const name = THROUGHPUT_TARGETS[scenario].baselineName;
  const { ratio, met } = p99Ratio(result.p99Ms, fair.p99Ms, HALF_LOAD_MAX_P99_RATIO);
  const beside = (fairMs: number, aMs: number) => `${name}: ${ms(fairMs)}, A: ${ms(aMs)}`;
  return [
    {
      measurement: `${label} p99 at half of ${name}'s rate / ${name}'s p99 at that rate`,
      measured: `${round(ratio, 2)}×`,
      'vs baseline': `at ${result.ratePerS}/s`,
      target: `≤ ${HALF_LOAD_MAX_P99_RATIO}×`,
      met: yesNo(met),
    },
    latencyRow(`  p50 open loop at ${result.ratePerS}/s`, result.p50Ms, undefined, beside(fair.p50Ms, result.baselineA.p50Ms)),
    latencyRow(`  p99 open loop at ${result.ratePerS}/s`, result.p99Ms, undefined, beside(fair.p99Ms, result.baselineA.p99Ms)),
    ...diskFlushRows(result.diskFlushes),
  ];
}

/** Machine CPU per request of a closed-loop scenario, median over its rounds (µs). */
const machineMicros = (rounds: BenchResults['closedLoop']['getContact']) =>
  round(median(rounds.map((run) => run.cpuMicrosPerRequest.machine)), 0);

/** The targets side by side with what this run measured. */
export function targetTable(results: BenchResults): TableRow[] {
  const { medianReqPerS, closedLoop, openLoop, backlog, eventToEmail, memory } = results;
  const a = medianReqPerS.baselineA;
  const cpuPerGet = machineMicros(closedLoop.getContact);
  const rows: TableRow[] = [
    info('baseline A: node:http + pg SELECT by id', `${a} req/s`),
    info('baseline A2: A behind a bare undici hop', `${medianReqPerS.baselineA2} req/s (${round(percentOf(medianReqPerS.baselineA2, a), 0)}% of A)`),
    throughputRow(results, 'getContact'),
    {
      measurement: '  CPU per GET, whole machine',
      measured: `${cpuPerGet} µs`,
      'vs baseline': `A: ${machineMicros(closedLoop.baselineA)} µs, A2: ${machineMicros(closedLoop.baselineA2)} µs`,
      target: '≤ 600 µs',
      met: yesNo(cpuPerGet <= 600),
    },
    throughputRow(results, 'createContact'),
    info('baseline E: node:http + confirmed publish to a quorum queue', `${medianReqPerS.baselineE} req/s`),
    info('baseline E2: E behind the same bare hop', `${medianReqPerS.baselineE2} req/s (${round(percentOf(medianReqPerS.baselineE2, medianReqPerS.baselineE), 0)}% of E)`),
    throughputRow(results, 'ingestEvent'),
    ...halfLoadRows('GET', 'getContact', openLoop.getContact),
    ...halfLoadRows('POST event', 'ingestEvent', openLoop.ingestEvent),
  ];
  for (const run of eventToEmail) {
    const q = run.queueFloor;
    const checks = new Map(emailChecks(run).map((check) => [check.figure, check]));
    const checkedLatency = (figure: 'p50' | 'p99', value: number, qMs: number): TableRow => {
      const check = checks.get(figure);
      const row = latencyRow(`  ${figure}, through the broker`, value, undefined, `Q: ${ms(qMs)}`);
      return check ? { ...row, target: check.target, met: yesNo(check.met) } : row;
    };
    const vsQueueFloor = checks.get("p99 / Q's p99");
    rows.push(
      info(`event → email at ${run.ratePerS}/s: arrived`, `${run.arrived}/${run.accepted} (${run.missing} missing); Q ${q.arrived}/${q.confirmed}`),
      checkedLatency('p50', run.p50Ms, q.p50Ms),
      checkedLatency('p99', run.p99Ms, q.p99Ms),
      ...(vsQueueFloor
        ? [{ measurement: "  p99 / Q's p99", measured: `${round(vsQueueFloor.measured, 2)}×`, 'vs baseline': `Q at ${q.ratePerS}/s`, target: vsQueueFloor.target, met: yesNo(vsQueueFloor.met) }]
        : []),
      latencyRow(`  max`, run.maxMs, undefined, `Q: ${ms(q.maxMs)}`),
      ...diskFlushRows(run.diskFlushes),
      ...diskFlushRows(q.diskFlushes, "  worst disk flush during Q's window"),
    );
  }
  const { variants, deadVsNone, deadVsLive, ratePerS, rounds, connections } = results.deadWebhook;
  const variantRow = (label: string, figures: { p50Ms: number; p99Ms: number }) => info(label, `p50 ${ms(figures.p50Ms)}, p99 ${ms(figures.p99Ms)}`);
  rows.push(
    variantRow(`event -> email at ${ratePerS}/s, no webhook endpoint (median of ${rounds})`, variants.none),
    variantRow(`  endpoint answering at once (${connections.live} connections)`, variants.live),
    variantRow(`  endpoint never answering (${connections.dead} connections held)`, variants.dead),
    // "Does not slow" as ratios to the run without an endpoint: the absolute latencies are the
    // event -> email rows' targets above, which no webhook setting should be asked to meet alone.
    {
      measurement: '  never answering / none, p50',
      measured: `${round(deadVsNone.p50, 2)}×`,
      'vs baseline': 'no endpoint',
      target: '≤ 1.5×',
      met: yesNo(deadVsNone.p50 <= 1.5),
    },
    {
      measurement: '  dead webhook endpoint / none, p99',
      measured: `${round(deadVsNone.p99, 2)}×`,
      'vs baseline': 'no endpoint',
      target: '≤ 1.5×',
      met: yesNo(deadVsNone.p99 <= 1.5),
    },
    info('  machine CPU per event, never answering / none', `${round(median(variants.dead.cpuPerEvent.map((cpu) => cpu.machine)) / median(variants.none.cpuPerEvent.map((cpu) => cpu.machine)), 2)}x`),
    info('  never answering / answering, p50', `${round(deadVsLive.p50, 2)}x (p99 ${round(deadVsLive.p99, 2)}x)`),
  );
  rows.push(
    info('baseline B: nodemailer alone', `${backlog.baselineB.emailsPerS} emails/s`),
    ratioRow(
      `backlog drain (${backlog.automation.emails} due sends)`,
      backlog.automation.emailsPerS,
      'emails/s',
      backlog.baselineB.emailsPerS,
      'B',
      85,
    ),
  );
  const { send, baselineC } = results.campaign;
  rows.push(
    info(`baseline C: nodemailer alone, ${baselineC.emails} emails`, `${baselineC.emailsPerS} emails/s`),
    ratioRow(`campaign to ${send.campaign.emails} recipients`, send.campaign.emailsPerS, 'emails/s', baselineC.emailsPerS, 'C', 85),
    info(`  workflow emails meanwhile at ${send.workflowsDuring.ratePerS}/s: arrived`, `${send.workflowsDuring.arrived}/${send.workflowsDuring.accepted}`),
    latencyRow('  event -> email p99 meanwhile', send.workflowsDuring.p99Ms, 1000),
  );
  for (const [name, mb] of Object.entries(memory.peakRssMb)) {
    if (isBaselineProcess(name)) continue;
    rows.push({ measurement: `peak RSS ${name} under the run (campaign included)`, measured: `${round(mb, 0)} MB`, 'vs baseline': '', target: '≤ 200 MB', met: yesNo(mb <= 200) });
  }
  for (const [name, mb] of Object.entries(memory.idleRssMb)) {
    const baseline = isBaselineProcess(name);
    rows.push({
      measurement: `idle RSS ${name} (peak ${round(memory.peakRssMb[name] ?? Number.NaN, 0)} MB)`,
      measured: `${round(mb, 0)} MB`,
      'vs baseline': '',
      target: baseline ? '' : '≤ 120 MB',
      met: baseline ? '' : yesNo(mb <= 120),
    });
  }
  return rows;
}
