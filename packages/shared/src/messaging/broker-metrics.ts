import type { Registry } from 'prom-client';
import { METRICS } from '../metrics/metric-catalogue';
import { counterOf, histogramOf } from '../metrics/registry';
import type { OutcomeObserver } from './consumer-runner';

export interface BrokerMetrics {
  published(type: string, outcome: 'confirmed' | 'failed'): void;
  /** The observer one consumer's runner reports its outcomes to. */
  consumed(queue: string): OutcomeObserver;
}

/** The broker's counters on a service's registry: publishes by type, consumer outcomes by queue. */
export function brokerMetrics(registry: Registry): BrokerMetrics {
  const published = counterOf(registry, METRICS.messagesPublished);
  const messages = counterOf(registry, METRICS.queueMessages);
  const duration = histogramOf(registry, METRICS.queueHandlerDuration);
  return {
    published: (type, outcome) => published.inc({ type, outcome }),
    consumed: (queue) => (outcome, seconds) => {
      messages.inc({ queue, outcome });
      duration.observe({ queue, outcome }, seconds);
    },
  };
}
