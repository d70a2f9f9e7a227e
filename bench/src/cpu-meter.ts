import { CLOCK_TICKS, machineBusyTicks, processCpuTicks } from './proc-stats';

export interface CpuSnapshot {
  processes: Map<string, number>;
  machine: number;
}

/** CPU spent per completed request during one scenario, in µs: per process and machine-wide. */
export interface CpuPerRequest {
  processes: Record<string, number>;
  machine: number;
}

export function cpuSnapshot(pids: ReadonlyMap<string, number>): CpuSnapshot {
  const processes = new Map<string, number>();
  for (const [name, pid] of pids) processes.set(name, processCpuTicks(pid));
  return { processes, machine: machineBusyTicks() };
}

const ticksToMicros = (ticks: number) => (ticks * 1_000_000) / CLOCK_TICKS;

export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuPerRequest {
  const perRequest = (ticks: number) =>
    requests > 0 ? Math.round(ticksToMicros(ticks) / requests) : Number.NaN;
  const processes: Record<string, number> = {};
  for (const [name, ticks] of after.processes)
    processes[name] = perRequest(ticks - (before.processes.get(name) ?? ticks));
  return { processes, machine: perRequest(after.machine - before.machine) };
}
