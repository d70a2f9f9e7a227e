import { counterOf, gaugeOf, histogramOf, METRICS, type DomainCheckObservation, type Pool, type Registry } from '@mailer/shared';
import { oldestPendingAgeSeconds } from '../../data-access/outbox.repository';


/** Counts each email-domain check by outcome and source, and times the DNS lookups. */
export function domainCheckMetrics(registry: Registry): (observation: DomainCheckObservation) => void {
  const checks = counterOf(registry, METRICS.dnsValidations);
  const lookups = histogramOf(registry, METRICS.dnsLookupDuration);
  return ({ outcome, source, seconds }) => {
    checks.inc({ outcome, source });
    if (seconds !== undefined) lookups.observe({ outcome }, seconds);
  };
}

/** The outbox lag gauge: read from the table at each scrape, so it is right on every instance. */
export function outboxLagGauge(registry: Registry, pool: Pool): void {
  gaugeOf(registry, METRICS.outboxPending, async (gauge) => {
    gauge.set(await oldestPendingAgeSeconds(pool));
  });
}
