import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import readline from 'node:readline';

/** One child process the benchmark started (a service or a baseline), measured through its pid. */
export interface ServiceProcess {
  name: string;
  pid: number;
  stop(): Promise<void>;
}

/** The same-run baselines' processes are named `baseline-<letter>`: no service target applies to them. */
export const isBaselineProcess = (name: string) => name.startsWith('baseline-');

const READY_TIMEOUT_MS = 60_000;
/** The line service-instances prints once all its workers listen. */
export const INSTANCES_READY = 'service-instances: every worker listens';
const STOP_GRACE_MS = 10_000;

function prefixLines(stream: NodeJS.ReadableStream | null, name: string, onLine: (line: string) => void = () => undefined): void {
  if (!stream) return;
  readline.createInterface({ input: stream }).on('line', (line) => {
    onLine(line);
    process.stderr.write(`${name} | ${line}\n`);
  });
}

/**
 * `BENCH_CPU_PROFILE=automation,gateway` runs those services under `--cpu-prof`: a V8 profile per
 * process lands in test-output/cpu-profiles when it stops (open it in Chrome DevTools). Node refuses
 * the flag in NODE_OPTIONS, so it goes on the command line.
 */
function profilingArgs(name: string): string[] {
  const profiled = (process.env.BENCH_CPU_PROFILE ?? '').split(',').map((entry) => entry.trim());
  return profiled.includes(name) ? ['--cpu-prof', '--cpu-prof-dir=test-output/cpu-profiles', `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : [];
}

/**
 * Starts `node script` with `env` and resolves once `readyUrl` answers 200. Its output goes to
 * stderr with a name prefix (LOG_LEVEL=warn keeps that quiet unless something is wrong).
 */
export async function startServiceProcess(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  nodeArgs: string[] = [],
  /** More than one: `script` is service-instances, ready only once it says all its workers listen. */
  instances = 1,
): Promise<ServiceProcess> {
  if (!existsSync(script)) throw new Error(`${name}: ${script} is not built; run npm run build`);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...profilingArgs(name), script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let allListening = instances === 1;
  prefixLines(child.stdout, name, (line) => {
    if (line === INSTANCES_READY) allListening = true;
  });
  prefixLines(child.stderr, name);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    const ready = allListening && await fetch(readyUrl).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { name, pid: child.pid!, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s (${readyUrl})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
