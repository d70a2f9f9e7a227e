import type { BenchResults } from './bench-results';
import type { DiskFlushFigures } from './disk-flush-probe';
import type { HalfLoadResult } from './open-loop-at-half';
import { median, round } from './percentile';

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
    measurement,
    measured: `${value} ${unit}`,
    'vs baseline': `${round(percent, 0)}% of ${baselineName}`,
    target: `>= ${minimumPercent}% of ${baselineName}`,
    met: yesNo(percent >= minimumPercent),
  };
}

function latencyRow(measurement: string, value: number, maximumMs?: number, baselineMs?: number): TableRow {
  return {
    measurement,
    measured: ms(value),
    'vs baseline': baselineMs === undefined ? '' : `A at the same rate: ${ms(baselineMs)}`,
    target: maximumMs === undefined ? '' : `<= ${maximumMs} ms`,
    met: maximumMs === undefined ? '' : yesNo(value <= maximumMs),
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
const diskFlushRows = (diskFlushes: DiskFlushFigures | undefined): TableRow[] =>
  diskFlushes ? [info('  worst disk flush meanwhile', `${ms(diskFlushes.worstMs)} (of ${diskFlushes.flushes})`)] : [];

/** A half-load open loop's p50 and p99 rows, each beside baseline A's at the same rate. */
const halfLoadRows = (result: HalfLoadResult, maximumP99Ms: number): TableRow[] => [
  latencyRow(`  p50 open loop at ${result.ratePerS}/s`, result.p50Ms, undefined, result.baselineA.p50Ms),
  latencyRow(`  p99 open loop at ${result.ratePerS}/s`, result.p99Ms, maximumP99Ms, result.baselineA.p99Ms),
  ...diskFlushRows(result.diskFlushes),
];

/** Machine CPU per request of a closed-loop scenario, median over its rounds (µs). */
const machineMicros = (rounds: BenchResults['closedLoop']['getContact']) =>
  round(median(rounds.map((run) => run.cpuMicrosPerRequest.machine)), 0);

/** The targets side by side with what this run measured. */
export function targetTable(results: BenchResults): TableRow[] {
  const a = results.medianReqPerS.baselineA;
  const { openLoop, backlog, eventToEmail, memory } = results;
  const cpuPerGet = machineMicros(results.closedLoop.getContact);
  const rows: TableRow[] = [
    info('baseline A: node:http + pg SELECT by id', `${a} req/s`),
    ratioRow('GET /api/v1/contacts/:id', results.medianReqPerS.getContact, 'req/s', a, 'A', 50),
    ...halfLoadRows(openLoop.getContact, 15),
    {
      measurement: '  CPU per GET, whole machine',
      measured: `${cpuPerGet} µs`,
      'vs baseline': `A: ${machineMicros(results.closedLoop.baselineA)} µs`,
      target: '<= 600 µs',
      met: yesNo(cpuPerGet <= 600),
    },
    ratioRow('POST /api/v1/contacts', results.medianReqPerS.createContact, 'req/s', a, 'A', 35),
    ratioRow('POST /v1/events', results.medianReqPerS.ingestEvent, 'req/s', a, 'A', 45),
    ...halfLoadRows(openLoop.ingestEvent, 25),
  ];
  for (const run of eventToEmail) {
    const first = run.ratePerS === 100;
    rows.push(
      info(
        `event -> email at ${run.ratePerS}/s: arrived`,
        `${run.arrived}/${run.accepted} (${run.missing} missing)`,
      ),
      latencyRow(`  p50`, run.p50Ms, first ? 10 : undefined),
      latencyRow(`  p99`, run.p99Ms, first ? 20 : 60),
      latencyRow(`  max`, run.maxMs),
      ...diskFlushRows(run.diskFlushes),
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
      measured: `${round(deadVsNone.p50, 2)}x`,
      'vs baseline': 'no endpoint',
      target: '<= 1.5x',
      met: yesNo(deadVsNone.p50 <= 1.5),
    },
    {
      measurement: '  never answering / none, p99',
      measured: `${round(deadVsNone.p99, 2)}x`,
      'vs baseline': 'no endpoint',
      target: '<= 1.5x',
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
    if (name === 'baseline-a') continue;
    rows.push({ measurement: `peak RSS ${name} (whole run, campaign included)`, measured: `${round(mb, 0)} MB`, 'vs baseline': '', target: '<= 200 MB', met: yesNo(mb <= 200) });
  }
  for (const [name, mb] of Object.entries(memory.idleRssMb)) {
    rows.push({
      measurement: `idle RSS ${name} (peak ${round(memory.peakRssMb[name] ?? Number.NaN, 0)} MB)`,
      measured: `${round(mb, 0)} MB`,
      'vs baseline': '',
      target: name === 'baseline-a' ? '' : '<= 120 MB',
      met: name === 'baseline-a' ? '' : yesNo(mb <= 120),
    });
  }
  return rows;
}
