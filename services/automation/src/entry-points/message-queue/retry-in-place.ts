import type { Logger } from 'pino';
import { backoffDelay, sleep } from '@mailer/shared';

/**
 * Runs `work` again, with backoff from 0.1 to 5 s, for as long as it fails because a service it
 * reads is away (`isOutage`) and the consumer is not stopping. The message stays unacked meanwhile,
 * so an outage spends no delivery attempt and dead-letters nothing (ADR 0003: what the consumer
 * runner does for a database outage, for a dependency it cannot recognise). Once stopping, the
 * outage reaches the runner, which requeues the message for another instance.
 */
export async function retryInPlace<T>(
  work: () => Promise<T>,
  options: { isOutage: (error: unknown) => boolean; stopping: () => boolean; logger: Logger; what: string },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!options.isOutage(error) || options.stopping()) throw error;
      const delay = backoffDelay(Math.min(attempt, 8), 100, 5000);
      options.logger.warn({ err: error, retryInMs: delay }, `${options.what}: dependency away; retrying`);
      await sleep(delay);
    }
  }
}
