import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { HttpRequestSpec } from './closed-loop';
import { percentile } from './percentile';

export interface OpenLoopResult {
  ratePerS: number;
  sent: number;
  non2xx: number;
  errors: number;
  /** Error messages (timeouts, resets) and how often each happened. */
  errorKinds: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** What the generator tells its caller about each answered request. */
export interface OpenLoopResponse {
  index: number;
  status: number;
  /** When the request was due (epoch ms, sub-millisecond): latency is counted from here. */
  scheduledAtMs: number;
  /** When the generator wrote it (epoch ms): later than due when the generator's process was late. */
  sentAtMs: number;
  /** When its answer had arrived in full (epoch ms, sub-millisecond). */
  answeredAtMs: number;
}

const REQUEST_TIMEOUT_MS = 30_000;
const epochNow = () => performance.timeOrigin + performance.now();

function send(agent: http.Agent, base: URL, spec: HttpRequestSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers =
      spec.body === undefined
        ? spec.headers
        : { ...spec.headers, 'content-length': String(Buffer.byteLength(spec.body)) };
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: spec.method,
        path: spec.path,
        headers,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', reject);
      },
    );
    request.once('timeout', () => request.destroy(new Error('timeout')));
    request.once('error', reject);
    request.end(spec.body);
  });
}

/**
 * Fires request i at exactly start + i/rate whatever happened to the earlier ones (open loop, like
 * real users), and measures each latency from that scheduled time, so time spent queued behind a
 * slow response is counted (no coordinated omission). Sockets are kept alive and never run out.
 */
export interface OpenLoopOptions {
  /** Told of each answered request (the event -> email run times each sign-up from it). */
  onResponse?: (response: OpenLoopResponse) => void;
  /** Sockets kept from an earlier loop (the caller destroys it); by default the loop opens its own. */
  agent?: http.Agent;
}

/** The open loop's keep-alive pool. */
export function openLoopAgent(): http.Agent {
  // A timeout makes the agent honour the server's `Keep-Alive: timeout=N` (Node ignores the hint
  // without one) and close an idle socket a second before the gateway does: a request written to
  // a socket the server is closing at that moment fails with ECONNRESET (3 of 8,000 in one run).
  return new http.Agent({ keepAlive: true, maxSockets: 1024, timeout: REQUEST_TIMEOUT_MS });
}

export async function runOpenLoop(
  baseUrl: string,
  ratePerS: number,
  seconds: number,
  next: (index: number) => HttpRequestSpec,
  options: OpenLoopOptions = {},
): Promise<OpenLoopResult> {
  const { onResponse = () => undefined } = options;
  const agent = options.agent ?? openLoopAgent();
  const base = new URL(baseUrl);
  const total = Math.max(1, Math.round(ratePerS * seconds));
  const intervalMs = 1000 / ratePerS;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const errorKinds: Record<string, number> = {};
  const inFlight: Array<Promise<void>> = [];
  const start = epochNow();
  let index = 0;
  while (index < total) {
    const now = epochNow();
    while (index < total && start + index * intervalMs <= now) {
      const scheduledAtMs = start + index * intervalMs;
      const current = index++;
      const sentAtMs = epochNow();
      inFlight.push(
        send(agent, base, next(current)).then(
          (status) => {
            const answeredAtMs = epochNow();
            latencies.push(answeredAtMs - scheduledAtMs);
            if (status < 200 || status > 299) non2xx++;
            onResponse({ index: current, status, scheduledAtMs, sentAtMs, answeredAtMs });
          },
          (error: Error & { code?: string }) => {
            errors++;
            const kind = error.code ?? error.message;
            errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
          },
        ),
      );
    }
    if (index < total)
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, start + index * intervalMs - epochNow())),
      );
  }
  await Promise.all(inFlight);
  if (options.agent === undefined) agent.destroy();
  return {
    ratePerS,
    sent: total,
    non2xx,
    errors,
    errorKinds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length > 0 ? Math.max(...latencies) : Number.NaN,
  };
}
