import { startBaselineA } from './baseline-a';
import { startBaselineHop } from './baseline-hop';
import { startBaselineIngress } from './baseline-ingress';
import type { Cleanup } from './cleanup';
import type { BaselineUrls } from './load-targets';
import type { SeededContacts } from './seed-contacts';
import type { ServiceProcess } from './service-process';

/**
 * The closed-loop scenarios' same-run baselines, each its own process: A (node:http + pg, one
 * indexed read), A2 (a bare hop in front of A), E (node:http + a confirmed publish to a quorum
 * queue) and E2 (the same bare hop in front of E); registered with `cleanup`.
 */
export async function startClosedLoopBaselines(options: {
  env: NodeJS.ProcessEnv;
  seeded: SeededContacts;
  amqpUrl: string;
  brokerNamespace: string;
  cleanup: Cleanup;
}): Promise<{ urls: BaselineUrls; processes: ServiceProcess[] }> {
  const { cleanup } = options;
  const a = await startBaselineA(options.env, options.seeded, cleanup);
  const e = await startBaselineIngress(options.amqpUrl, options.brokerNamespace, cleanup);
  const a2 = await startBaselineHop('baseline-a2', a.url, cleanup);
  const e2 = await startBaselineHop('baseline-e2', e.url, cleanup);
  return {
    urls: { a: a.url, a2: a2.url, e: e.url, e2: e2.url, purgeIngress: e.purge },
    processes: [a.process, a2.process, e.process, e2.process],
  };
}
