import { CLOCK_TICKS, machineBusyTicks, ownCpuTicks, processCpuTicks, serverCpuTicks } from './proc-stats';

export interface CpuSnapshot {
  processes: Map<string, number>;
  /** Postgres, RabbitMQ, Redis and this benchmark's own process, by pid. */
  servers: Map<string, Map<number, number>>;
  machine: number;
}

/**
 * CPU spent per completed request during one scenario, in µs: per process we started, per server
 * (Postgres, RabbitMQ, Redis, and `benchmark`: this process, the load generator and the SMTP sink),
 * and machine-wide.
 */
export interface CpuPerRequest {
  processes: Record<string, number>;
  servers: Record<string, number>;
  machine: number;
}

export function cpuSnapshot(pids: ReadonlyMap<string, number>): CpuSnapshot {
  const processes = new Map<string, number>();
  for (const [name, pid] of pids) processes.set(name, processCpuTicks(pid));
  const servers = serverCpuTicks();
  // Its own ticks only: the services and baseline A are its children.
  servers.set('benchmark', new Map([[process.pid, ownCpuTicks(process.pid)]]));
  return { processes, servers, machine: machineBusyTicks() };
}

/**
 * A server's ticks between two snapshots: a process that started meanwhile counts from zero; one
 * that ended meanwhile (a Postgres backend closed) is missing its last stretch, never negative.
 */
function serverTicks(before: Map<number, number> | undefined, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += Math.max(0, now - (before?.get(pid) ?? 0));
  return ticks;
}

const ticksToMicros = (ticks: number) => (ticks * 1_000_000) / CLOCK_TICKS;

export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuPerRequest {
  const perRequest = (ticks: number) =>
    requests > 0 ? Math.round(ticksToMicros(ticks) / requests) : Number.NaN;
  const processes: Record<string, number> = {};
  for (const [name, ticks] of after.processes)
    processes[name] = perRequest(ticks - (before.processes.get(name) ?? ticks));
  const servers: Record<string, number> = {};
  for (const [server, ticks] of after.servers) servers[server] = perRequest(serverTicks(before.servers.get(server), ticks));
  return { processes, servers, machine: perRequest(after.machine - before.machine) };
}
