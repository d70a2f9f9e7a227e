import path from 'node:path';
import { freePort } from '@mailer/testing';
import type { Cleanup } from './cleanup';
import { startServiceProcess, type ServiceProcess } from './service-process';

/** The gateway's upstream pools' connections (services/gateway/src/entry-points/api/upstream-proxy.ts). */
const GATEWAY_UPSTREAM_CONNECTIONS = 64;

/**
 * A bare hop (baseline-hop-server) in front of `upstreamUrl`, as its own process named `name`,
 * registered with `cleanup`: A2 in front of A, E2 in front of E. Ready once the upstream's
 * `/readyz` answers through it.
 */
export async function startBaselineHop(
  name: string,
  upstreamUrl: string,
  cleanup: Cleanup,
): Promise<{ url: string; process: ServiceProcess }> {
  const port = await freePort();
  const hop = await startServiceProcess(
    name,
    path.join(__dirname, 'baseline-hop-server.js'),
    { ...process.env, PORT: String(port), HOP_UPSTREAM_URL: upstreamUrl, HOP_CONNECTIONS: String(GATEWAY_UPSTREAM_CONNECTIONS) },
    `http://127.0.0.1:${port}/readyz`,
  );
  cleanup.add(name, () => hop.stop());
  return { url: `http://127.0.0.1:${port}`, process: hop };
}
