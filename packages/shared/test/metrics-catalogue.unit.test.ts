import {
  METRICS,
  counterOf,
  createMetricsRegistry,
  gaugeOf,
  histogramOf,
  metricsOwnedBy,
  type MetricDefinition,
} from '@mailer/shared';
import { metricValue, parseMetrics } from '@mailer/testing';

const definitions: MetricDefinition[] = Object.values(METRICS);

describe('metric catalogue', () => {
  it('names every metric once, in Prometheus syntax, counters ending in _total and durations in _seconds', () => {
    const names = definitions.map((definition) => definition.name);
    expect(new Set(names).size).toBe(names.length);
    for (const definition of definitions) {
      expect(definition.name).toMatch(/^[a-z_][a-z0-9_]*$/);
      if (definition.type === 'counter') expect(definition.name).toMatch(/_total$/);
      if (definition.type === 'histogram') expect(definition.name).toMatch(/_seconds$/);
      for (const label of definition.labelNames) expect(label).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(definition.labelNames).not.toContain('service');
      expect(definition.help.length).toBeGreaterThan(10);
      expect(definition.owners.length).toBeGreaterThan(0);
    }
  });

  it('covers what issue 8 lists, each owned by the service that observes it', () => {
    const owned = (service: Parameters<typeof metricsOwnedBy>[0]) =>
      metricsOwnedBy(service).map((d) => d.name);
    expect(owned('gateway')).toEqual(
      expect.arrayContaining([
        'mailer_rate_limit_decisions_total',
        'mailer_rate_limit_fallback_total',
        'mailer_auth_failures_total',
        'mailer_auth_ip_blocks_total',
      ]),
    );
    expect(owned('events')).toEqual(
      expect.arrayContaining(['mailer_events_accepted_total', 'mailer_events_refused_total', 'mailer_messages_published_total']),
    );
    expect(owned('automation')).toEqual(
      expect.arrayContaining([
        'mailer_emails_sent_total',
        'mailer_emails_skipped_total',
        'mailer_emails_failed_total',
        'mailer_smtp_send_duration_seconds',
        'mailer_queue_messages_total',
        'mailer_outbox_publish_lag_seconds',
      ]),
    );
    expect(owned('contacts')).toEqual(
      expect.arrayContaining([
        'mailer_dns_validations_total',
        'mailer_dns_lookup_duration_seconds',
        'mailer_outbox_oldest_pending_age_seconds',
      ]),
    );
    expect(owned('campaigns')).not.toContain('mailer_emails_sent_total');
  });

  it('creates a metric once per registry and hands back the same one on a second call', async () => {
    const registry = createMetricsRegistry('automation', { processMetrics: false });
    const skipped = counterOf(registry, METRICS.emailsSkipped);
    expect(counterOf(registry, METRICS.emailsSkipped)).toBe(skipped);
    skipped.inc({ reason: 'bounced' });
    counterOf(registry, METRICS.emailsSkipped).inc({ reason: 'bounced' });
    skipped.inc({ reason: 'unsubscribed' });
    histogramOf(registry, METRICS.smtpSendDuration).observe({ outcome: 'accepted' }, 0.2);
    const text = await registry.metrics();
    expect(
      metricValue(text, 'mailer_emails_skipped_total', { reason: 'bounced', service: 'automation' }),
    ).toBe(2);
    expect(metricValue(text, 'mailer_emails_skipped_total', { reason: 'unsubscribed' })).toBe(1);
    expect(
      metricValue(text, 'mailer_smtp_send_duration_seconds_bucket', { outcome: 'accepted', le: '0.25' }),
    ).toBe(1);
    expect(
      metricValue(text, 'mailer_smtp_send_duration_seconds_bucket', { outcome: 'accepted', le: '0.1' }),
    ).toBe(0);
  });

  it('keeps registries apart, so services in one test process do not add into each other', async () => {
    const one = createMetricsRegistry('contacts', { processMetrics: false });
    const two = createMetricsRegistry('contacts', { processMetrics: false });
    counterOf(one, METRICS.dnsValidations).inc({ outcome: 'no_mx', source: 'dns' });
    expect(metricValue(await one.metrics(), 'mailer_dns_validations_total', { outcome: 'no_mx' })).toBe(1);
    expect(
      metricValue(await two.metrics(), 'mailer_dns_validations_total', { outcome: 'no_mx' }),
    ).toBeUndefined();
  });

  it('refuses a name already registered as another type', () => {
    const registry = createMetricsRegistry('contacts', { processMetrics: false });
    counterOf(registry, METRICS.dnsValidations);
    const impostor = { ...METRICS.dnsLookupDuration, name: METRICS.dnsValidations.name };
    expect(() => histogramOf(registry, impostor)).toThrow(/already registered as a counter/);
  });

  it('runs a gauge collect at scrape time and keeps the last value when the probe fails', async () => {
    const registry = createMetricsRegistry('contacts', { processMetrics: false });
    let age: number | Error = 12.5;
    gaugeOf(registry, METRICS.outboxPending, (gauge) => {
      if (age instanceof Error) throw age;
      gauge.set(age);
    });
    expect(metricValue(await registry.metrics(), 'mailer_outbox_oldest_pending_age_seconds')).toBe(12.5);
    age = new Error('database down');
    expect(metricValue(await registry.metrics(), 'mailer_outbox_oldest_pending_age_seconds')).toBe(12.5);
    age = 0;
    expect(metricValue(await registry.metrics(), 'mailer_outbox_oldest_pending_age_seconds')).toBe(0);
  });

  it('parses label values with escaped quotes and refuses a malformed sample line', () => {
    expect(parseMetrics('x_total{a="say \\"hi\\""} 3\n')).toEqual([
      { name: 'x_total', labels: { a: 'say "hi"' }, value: 3 },
    ]);
    expect(() => parseMetrics('{broken 1')).toThrow(/not a Prometheus sample line/);
  });
});
