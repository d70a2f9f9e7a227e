import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import type { BenchConfig } from './bench-config';
import type { BenchResults } from './bench-results';
import { cpuTable } from './cpu-table';
import { loadAverage } from './proc-stats';
import { REPO_ROOT } from './start-stack';
import { targetTable } from './target-table';

/** The config as recorded: URLs without their passwords. */
function recordedConfig(config: BenchConfig): BenchConfig {
  const withoutPassword = (raw: string) => {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  };
  return {
    ...config,
    postgresUrl: withoutPassword(config.postgresUrl),
    redisUrl: withoutPassword(config.redisUrl),
    amqpUrl: withoutPassword(config.amqpUrl),
  };
}

/** Prints the targets table and the CPU table, and writes the same data as JSON; returns its path. */
export async function writeReport(options: {
  config: BenchConfig;
  results: BenchResults;
  problems: string[];
  startedAt: Date;
  loadAtStart: number[];
}): Promise<string> {
  const targets = targetTable(options.results);
  const cpu = cpuTable(options.results);
  console.table(targets);
  console.table(cpu);
  const file = path.join(
    REPO_ROOT,
    'bench',
    'results',
    `${options.startedAt.toISOString().replace(/[:.]/g, '-')}.json`,
  );
  await mkdir(path.dirname(file), { recursive: true });
  const document = {
    startedAt: options.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      loadAverageAtStart: options.loadAtStart,
      loadAverageAtEnd: loadAverage(),
    },
    config: recordedConfig(options.config),
    valid: options.problems.length === 0,
    problems: options.problems,
    targets,
    cpuMicrosPerRequest: cpu,
    results: options.results,
  };
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  return file;
}
