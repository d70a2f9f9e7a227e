import autocannon from 'autocannon';
import { cpuPerRequest, cpuSnapshot, type CpuPerRequest } from './cpu-meter';

export interface HttpRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A closed-loop target: a base URL and a request made fresh for every call (random id, unique email). */
export interface LoadTarget {
  name: string;
  baseUrl: string;
  next: () => HttpRequestSpec;
  /** Clears what a run against this target leaves behind (baseline E's queue), after the run's figures are taken. */
  afterRun?: () => Promise<void>;
}

export interface ClosedLoopResult {
  scenario: string;
  reqPerS: number;
  /** Responses received (2xx and not). */
  requests: number;
  non2xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  /** How long the queued asynchronous work (enrichment, matching) went on after the last response. */
  asyncDrainMs: number;
  /** Counted until that work was done, so a request's consequences are billed to it. */
  cpuMicrosPerRequest: CpuPerRequest;
}

/**
 * Throughput with `connections` clients each sending its next request as soon as the previous one
 * is answered (autocannon), and the CPU the measured processes and the machine spent per response,
 * up to the end of the asynchronous work the requests queued (`drained`).
 */
export async function runClosedLoop(
  target: LoadTarget,
  options: {
    connections: number;
    seconds: number;
    pids: ReadonlyMap<string, number>;
    drained: () => Promise<number>;
  },
): Promise<ClosedLoopResult> {
  const first = target.next();
  const before = cpuSnapshot(options.pids);
  const result = await autocannon({
    url: target.baseUrl,
    connections: options.connections,
    duration: options.seconds,
    requests: [{ ...first, setupRequest: (request) => ({ ...request, ...target.next() }) }],
  });
  const requests = result['2xx'] + result.non2xx;
  const asyncDrainMs = await options.drained();
  const after = cpuSnapshot(options.pids);
  await target.afterRun?.();
  return {
    scenario: target.name,
    reqPerS: Math.round(requests / result.duration),
    requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    asyncDrainMs,
    cpuMicrosPerRequest: cpuPerRequest(before, after, requests),
  };
}
