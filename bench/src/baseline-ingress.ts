import path from 'node:path';
import amqp from 'amqplib';
import { freePort } from '@mailer/testing';
import type { Cleanup } from './cleanup';
import { baselineQueueName } from './run-resources';
import { startServiceProcess, type ServiceProcess } from './service-process';

export interface BaselineIngress {
  url: string;
  process: ServiceProcess;
  /**
   * Empties E's queue. Nothing consumes it: a consumer would add deliveries and acks to the broker's
   * work, and a process to the cores, while E is measured, and E is the ingest hop alone. So every
   * run against E or E2 is followed by a purge (`LoadTarget.afterRun`), and the queue never holds
   * more than one run's messages.
   */
  purge(): Promise<void>;
}

/**
 * Baseline E (baseline-ingress-server) as its own process, publishing to `<namespace>baseline-e`,
 * registered with `cleanup`; the queue goes with the run's broker namespace (`removeRunBrokerTopology`).
 */
export async function startBaselineIngress(
  amqpUrl: string,
  namespace: string,
  cleanup: Cleanup,
): Promise<BaselineIngress> {
  const port = await freePort();
  const queue = baselineQueueName(namespace, 'ingress');
  const ingress = await startServiceProcess(
    'baseline-e',
    path.join(__dirname, 'baseline-ingress-server.js'),
    { ...process.env, PORT: String(port), AMQP_URL: amqpUrl, INGRESS_QUEUE: queue },
    `http://127.0.0.1:${port}/readyz`,
  );
  cleanup.add('baseline E', () => ingress.stop());
  const purge = async () => {
    const connection = await amqp.connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      await channel.purgeQueue(queue);
    } finally {
      await connection.close();
    }
  };
  return { url: `http://127.0.0.1:${port}`, process: ingress, purge };
}
