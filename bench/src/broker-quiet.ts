import amqp from 'amqplib';
import { QUEUES, deadLetterQueueName } from '@mailer/shared';
import { collectOwnGarbage } from './own-garbage';

const POLL_MS = 200;
/** Before a scenario, queues must stay empty this long: outbox relays poll every 500 ms, so a gap can hide work in flight. */
const SETTLED_FOR_MS = 1200;

export interface QuietResult {
  /** How long the stack took to finish asynchronous work left by the previous scenario. */
  waitedMs: number;
  /** Messages sitting in the namespace's dead-letter queues (should stay 0). */
  deadLettered: number;
}

/**
 * Waits until every queue of the run's namespace has stayed empty for a moment, so work queued
 * by one scenario (events still being enriched and matched) is not billed to the next one.
 */
export async function waitForQuietBroker(
  amqpUrl: string,
  namespace: string,
  quietForMs: number,
  timeoutMs = 120_000,
): Promise<QuietResult> {
  const connection = await amqp.connect(amqpUrl);
  // A closed channel (a queue removed by cleanup after Ctrl-C) also surfaces here; without a
  // listener it would be thrown as an uncaught 'error' and cut the cleanup short.
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createChannel();
    const names = Object.values(QUEUES).map((queue) => namespace + queue.name);
    const started = Date.now();
    let quietSince: number | undefined;
    for (;;) {
      let ready = 0;
      const held: string[] = [];
      for (const name of names) {
        const count = (await channel.checkQueue(name)).messageCount;
        ready += count;
        if (count > 0) held.push(`${name}: ${count}`);
      }
      const now = Date.now();
      if (ready > 0) quietSince = undefined;
      else quietSince ??= now;
      if (quietSince !== undefined && now - quietSince >= quietForMs) break;
      if (now - started > timeoutMs)
        throw new Error(`broker queues still hold ${ready} messages after ${timeoutMs / 1000} s (${held.join(', ')})`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    let deadLettered = 0;
    for (const name of names)
      deadLettered += (await channel.checkQueue(deadLetterQueueName(name))).messageCount;
    await channel.close();
    return { waitedMs: Math.max(0, Date.now() - started - quietForMs), deadLettered };
  } finally {
    await connection.close().catch(() => undefined);
  }
}

export type SettleWait = QuietResult & { before: string };

/** Waits for a quiet broker before each named scenario and keeps every wait for the report. */
export function brokerSettler(amqpUrl: string, namespace: string) {
  const waits: SettleWait[] = [];
  return {
    waits,
    /** Until the queues are empty (no hold): the end of a scenario's asynchronous work, for its CPU figures. */
    async drained(): Promise<number> {
      return (await waitForQuietBroker(amqpUrl, namespace, 0)).waitedMs;
    },
    /** Until the queues stayed empty a moment, then the benchmark's own garbage is collected. */
    async before(scenario: string): Promise<void> {
      const quiet = await waitForQuietBroker(amqpUrl, namespace, SETTLED_FOR_MS);
      collectOwnGarbage();
      waits.push({ before: scenario, ...quiet });
      if (quiet.waitedMs > 1000)
        process.stderr.write(
          `(waited ${(quiet.waitedMs / 1000).toFixed(1)} s for queued work to finish before ${scenario})\n`,
        );
    },
  };
}

export type BrokerSettler = ReturnType<typeof brokerSettler>;
