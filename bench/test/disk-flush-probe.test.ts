import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeDiskFlushes, probeDirectory, withDiskProbe } from '../src/disk-flush-probe';

describe('the disk flush probe', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'disk-probe-test-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('times the flushes made while the window ran, and hands back its result', async () => {
    const { result, diskFlushes } = await withDiskProbe(directory, async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return 'done';
    });

    expect(result).toBe('done');
    // One flush every 50 ms for 400 ms: the first at once, then one after each interval.
    expect(diskFlushes.flushes).toBeGreaterThanOrEqual(4);
    expect(diskFlushes.flushes).toBeLessThanOrEqual(10);
    expect(diskFlushes.worstMs).toBeGreaterThanOrEqual(diskFlushes.p99Ms);
    expect(diskFlushes.p99Ms).toBeGreaterThan(0);
    expect(diskFlushes.failed).toBeUndefined();
    expect(describeDiskFlushes(diskFlushes)).toMatch(/^disk flushes meanwhile: \d+, p99 \d+\.\d ms, worst \d+\.\d ms$/);
  });

  it("passes the window's failure on once the probe has stopped", async () => {
    await expect(
      withDiskProbe(directory, async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new Error('window failed');
      }),
    ).rejects.toThrow('window failed');
  });

  it('fails before the window runs when the folder cannot hold its file', async () => {
    const window = jest.fn(async () => 'ran');
    await expect(withDiskProbe(path.join(directory, 'missing'), window)).rejects.toThrow(/ENOENT/);
    expect(window).not.toHaveBeenCalled();
  });

  it("says whether the probe's folder is on the device of Postgres's data", async () => {
    const probed = await probeDirectory(process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    try {
      expect(probed.description).toContain(probed.directory);
      expect(probed.description).toMatch(/Postgres's data/);
      expect((await readdir(probed.directory)).length).toBe(0);
    } finally {
      await probed.remove();
    }
    await expect(readdir(probed.directory)).rejects.toThrow(/ENOENT/);
  });

  it('says so when Postgres cannot be asked where its data is', async () => {
    const probed = await probeDirectory('postgres://postgres@127.0.0.1:1/none');
    try {
      expect(probed.description).toMatch(/not readable from here/);
    } finally {
      await probed.remove();
    }
  });
});
