import { mkdtemp, open, rm, stat, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { percentile } from './percentile';

/** What one small write and flush took on the probed disk while a window ran. */
export interface DiskFlushFigures {
  flushes: number;
  p99Ms: number;
  worstMs: number;
  /** Why the probe stopped early (the figures cover what it measured until then). */
  failed?: string;
}

/**
 * Time between flushes. Twenty a second add little to the stack's own (about three commits a
 * sign-up, 600 flushes a second at 200 sign-ups), and any stall longer than the interval is seen.
 */
const PROBE_INTERVAL_MS = 50;
const BLOCK = Buffer.alloc(8192, 1);

/**
 * Times the machine's disk while a latency window runs: one 8 KiB write and `fdatasync` every
 * 50 ms, as a commit does to Postgres's WAL. On the shared machines this benchmark runs on, a
 * flush that normally takes 0.1 ms sometimes stalls for 50 ms to 1.8 s, and every commit waiting
 * meanwhile waits with it: a p99 beside the worst flush of its window tells a disk stall from the
 * stack (docs/adr/0044-benchmark-method.md).
 */
class DiskFlushProbe {
  private readonly durations: number[] = [];
  private stopped = false;
  private failed: string | undefined;
  private readonly loop: Promise<void>;

  constructor(private readonly file: FileHandle) {
    this.loop = this.run();
  }

  async stop(): Promise<DiskFlushFigures> {
    this.stopped = true;
    await this.loop;
    await this.file.close();
    return {
      flushes: this.durations.length,
      p99Ms: percentile(this.durations, 99),
      worstMs: this.durations.length > 0 ? Math.max(...this.durations) : Number.NaN,
      ...(this.failed === undefined ? {} : { failed: this.failed }),
    };
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped) {
        const started = performance.now();
        await this.file.write(BLOCK, 0, BLOCK.length, 0);
        await this.file.datasync();
        this.durations.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
      }
    } catch (error) {
      // A full or failing disk costs the probe, not the window it watches.
      this.failed = error instanceof Error ? error.message : String(error);
    }
  }
}

/**
 * Runs `window` with the disk in `directory` probed meanwhile; resolves to its result and the
 * flushes' figures. Without a directory the window runs alone (no figures).
 */
export async function withDiskProbe<T>(directory: string, window: () => Promise<T>): Promise<{ result: T; diskFlushes: DiskFlushFigures }>;
export async function withDiskProbe<T>(directory: string | undefined, window: () => Promise<T>): Promise<{ result: T; diskFlushes?: DiskFlushFigures }>;
export async function withDiskProbe<T>(directory: string | undefined, window: () => Promise<T>): Promise<{ result: T; diskFlushes?: DiskFlushFigures }> {
  if (directory === undefined) return { result: await window() };
  const probe = new DiskFlushProbe(await open(path.join(directory, 'probe'), 'w'));
  let result: T;
  try {
    result = await window();
  } catch (error) {
    await probe.stop();
    throw error;
  }
  return { result, diskFlushes: await probe.stop() };
}

export const describeDiskFlushes = (figures: DiskFlushFigures): string =>
  `disk flushes meanwhile: ${figures.flushes}, p99 ${figures.p99Ms.toFixed(1)} ms, worst ${figures.worstMs.toFixed(1)} ms` +
  (figures.failed === undefined ? '' : ` (probe stopped: ${figures.failed})`);

/** What ends a window's line: `; ` and its flushes when it was probed, else nothing. */
export const diskFlushesSuffix = (figures: DiskFlushFigures | undefined): string =>
  figures === undefined ? '' : `; ${describeDiskFlushes(figures)}`;

/** Where the probe writes, and whether that is the disk Postgres's data is on. */
export interface ProbeDirectory {
  directory: string;
  remove(): Promise<void>;
  /** One line for the run's log. */
  description: string;
}

/**
 * A fresh folder in the OS temp directory. Postgres's data directory is asked for (the bench's
 * user is a superuser) and compared by device, so the log says whether the probe times the disk
 * the commits wait for; a remote or unreadable one is said to be unknown.
 */
export async function probeDirectory(postgresUrl: string): Promise<ProbeDirectory> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'mailer-bench-disk-'));
  const dataDirectory = await postgresDataDirectory(postgresUrl);
  const [probed, data] = await Promise.all([stat(directory), dataDirectory ? stat(dataDirectory).catch(() => undefined) : undefined]);
  const where =
    data === undefined
      ? "Postgres's data directory is not readable from here, so the probed disk may not be its"
      : data.dev === probed.dev
        ? `the same device as Postgres's data (${dataDirectory})`
        : `not the device of Postgres's data (${dataDirectory}): the commits' disk is not probed`;
  return {
    directory,
    remove: () => rm(directory, { recursive: true, force: true }),
    description: `disk probe: an 8 KiB write and flush every ${PROBE_INTERVAL_MS} ms in ${directory}, ${where}`,
  };
}

async function postgresDataDirectory(postgresUrl: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: postgresUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return rows[0]?.data_directory;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}
