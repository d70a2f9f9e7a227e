import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** Kernel clock ticks per second, the unit of /proc CPU times. */
export const CLOCK_TICKS: number = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The process and its descendants (a service run as `--instances N` is a primary and N workers). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // gone meanwhile, or a kernel without the children file: the process alone
  }
  return [pid, ...children.flatMap(processTree)];
}

/**
 * A `Vm*` line of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak); for several instances, the
 * largest of them (the target is per process).
 */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Math.max(...processTree(pid).map((member) => ownMemoryMb(member, field)));
}

function ownMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]) / 1024;
}

/** utime + stime of a process and its descendants (all instances of a service), in ticks. */
export function processCpuTicks(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + ownCpuTicks(member), 0);
}

/** utime + stime of the process alone (its threads included, its children not), in ticks. */
export function ownCpuTicks(pid: number): number {
  return cpuTicksOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

function cpuTicksOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  return Number(fields[11]) + Number(fields[12]);
}

/** The servers a request also costs, by the name their processes run under (every process of that name on the machine). */
const SERVER_PROCESS_NAMES: Readonly<Record<string, string>> = {
  postgres: 'postgres',
  'beam.smp': 'rabbitmq',
  'redis-server': 'redis',
};

/** utime + stime of every process of each server (Postgres's backends, RabbitMQ's VM, Redis), in ticks by pid. */
export function serverCpuTicks(): Map<string, Map<number, number>> {
  const servers = new Map<string, Map<number, number>>(
    Object.values(SERVER_PROCESS_NAMES).map((server) => [server, new Map<number, number>()]),
  );
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const server = SERVER_PROCESS_NAMES[stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))];
    if (server) servers.get(server)!.set(Number(entry), cpuTicksOfStat(stat));
  }
  return servers;
}

/** Ticks the whole machine spent not idle (all CPUs): everything but idle and iowait. */
export function machineBusyTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: the 4th and 5th are the idle ones.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = values;
  return user + nice + system + irq + softirq + steal;
}

export const loadAverage = (): number[] => loadavg().map((value) => Number(value.toFixed(2)));
