/**
 * Every metric the services expose, in one place: name, help text, label names and the service
 * that owns it. A service creates only the metrics it owns (`counterOf(registry, METRICS.x)`),
 * so two services never export the same series under different meanings, and the runbook's
 * alert table can be checked against this list.
 */

export type ServiceName = 'gateway' | 'contacts' | 'campaigns' | 'events' | 'automation';

interface BaseDefinition {
  name: string;
  help: string;
  labelNames: readonly string[];
  /** The services that create this metric (the broker's consumer metrics: every consumer). */
  owners: readonly ServiceName[];
}

export interface CounterDefinition extends BaseDefinition {
  type: 'counter';
}

export interface GaugeDefinition extends BaseDefinition {
  type: 'gauge';
}

export interface HistogramDefinition extends BaseDefinition {
  type: 'histogram';
  /** Upper bounds in seconds. */
  buckets: readonly number[];
}

export type MetricDefinition = CounterDefinition | GaugeDefinition | HistogramDefinition;

const ALL: readonly ServiceName[] = ['gateway', 'contacts', 'campaigns', 'events', 'automation'];
const CONSUMERS: readonly ServiceName[] = ['contacts', 'campaigns', 'automation'];
const PUBLISHERS: readonly ServiceName[] = ['contacts', 'events', 'automation'];

/** Fast in-process work (HTTP handlers, message handlers). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** Remote round trips that may legitimately take seconds (SMTP, DNS, outbox). */
const REMOTE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

export const METRICS = {
  httpRequests: {
    type: 'counter',
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'],
    owners: ALL,
  },
  httpRequestDuration: {
    type: 'histogram',
    name: 'http_request_duration_seconds',
    help: 'Time from request arrival to the end of the response, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'],
    buckets: REQUEST_BUCKETS,
    owners: ALL,
  },
  rateLimitDecisions: {
    type: 'counter',
    name: 'mailer_rate_limit_decisions_total',
    help: 'Rate-limit decisions: decision=allowed|limited; limit=the limit nearest to exhaustion (key_minute, key_hour, ip_minute).',
    labelNames: ['decision', 'limit'],
    owners: ['gateway'],
  },
  rateLimitFallback: {
    type: 'counter',
    name: 'mailer_rate_limit_fallback_total',
    help: 'Requests limited by the per-process fallback limiter because Redis was unreachable.',
    labelNames: [],
    owners: ['gateway'],
  },
  authFailures: {
    type: 'counter',
    name: 'mailer_auth_failures_total',
    help: 'Refused authentications, by reason (missing, malformed, unknown, wrong_secret, revoked, expired, plan, signin).',
    labelNames: ['reason'],
    owners: ['gateway'],
  },
  ipBlocks: {
    type: 'counter',
    name: 'mailer_auth_ip_blocks_total',
    help: 'Times a client IP crossed AUTH_FAIL_LIMIT and was blocked for the rest of the window.',
    labelNames: [],
    owners: ['gateway'],
  },
  blockedRequests: {
    type: 'counter',
    name: 'mailer_auth_blocked_requests_total',
    help: 'Requests refused with 429 because their IP is blocked.',
    labelNames: [],
    owners: ['gateway'],
  },
  eventsAccepted: {
    type: 'counter',
    name: 'mailer_events_accepted_total',
    help: 'Product events answered 202 after the broker confirmed them; replayed=true for an Idempotency-Key replay.',
    labelNames: ['replayed'],
    owners: ['events'],
  },
  eventsRefused: {
    type: 'counter',
    name: 'mailer_events_refused_total',
    help: 'Product events refused, by reason (invalid, too_large, broker_unavailable, idempotency_conflict).',
    labelNames: ['reason'],
    owners: ['events'],
  },
  messagesPublished: {
    type: 'counter',
    name: 'mailer_messages_published_total',
    help: 'Messages published to the broker, by message type and outcome (confirmed, failed).',
    labelNames: ['type', 'outcome'],
    owners: PUBLISHERS,
  },
  queueMessages: {
    type: 'counter',
    name: 'mailer_queue_messages_total',
    help: 'Consumed messages by queue and outcome: ack, requeue (nack, redelivered later), dead-letter (nack to the DLQ).',
    labelNames: ['queue', 'outcome'],
    owners: CONSUMERS,
  },
  queueHandlerDuration: {
    type: 'histogram',
    name: 'mailer_queue_handler_duration_seconds',
    help: 'Time from delivery to settlement of one message, by queue and outcome.',
    labelNames: ['queue', 'outcome'],
    buckets: REQUEST_BUCKETS,
    owners: CONSUMERS,
  },
  emailsSent: {
    type: 'counter',
    name: 'mailer_emails_sent_total',
    help: 'Workflow emails the SMTP server accepted.',
    labelNames: [],
    owners: ['automation'],
  },
  emailsSkipped: {
    type: 'counter',
    name: 'mailer_emails_skipped_total',
    help: 'Workflow emails not sent by rule, by reason (the ledger skip reason, e.g. bounced, unsubscribed, step_removed, contact_unknown).',
    labelNames: ['reason'],
    owners: ['automation'],
  },
  emailsFailed: {
    type: 'counter',
    name: 'mailer_emails_failed_total',
    help: 'Workflow email attempts that failed, by reason (transient, bounced, permanent, render, attempts_exhausted).',
    labelNames: ['reason'],
    owners: ['automation'],
  },
  smtpSendDuration: {
    type: 'histogram',
    name: 'mailer_smtp_send_duration_seconds',
    help: 'SMTP round trip of one send, by outcome (accepted, transient, permanent).',
    labelNames: ['outcome'],
    buckets: REMOTE_BUCKETS,
    owners: ['automation'],
  },
  dnsValidations: {
    type: 'counter',
    name: 'mailer_dns_validations_total',
    help: 'Email-domain checks, by outcome (ok, no_mx, dns_timeout, disposable) and source (dns, cache, list: the disposable-domain list).',
    labelNames: ['outcome', 'source'],
    owners: ['contacts'],
  },
  dnsLookupDuration: {
    type: 'histogram',
    name: 'mailer_dns_lookup_duration_seconds',
    help: 'DNS resolution time of one domain check that missed the cache, by outcome.',
    labelNames: ['outcome'],
    buckets: REMOTE_BUCKETS,
    owners: ['contacts'],
  },
  outboxLag: {
    type: 'histogram',
    name: 'mailer_outbox_publish_lag_seconds',
    help: 'Time from an outbox row being written to the broker confirming its message.',
    labelNames: [],
    buckets: REMOTE_BUCKETS,
    owners: ['contacts', 'automation'],
  },
  outboxPending: {
    type: 'gauge',
    name: 'mailer_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest outbox row not yet published (0 when the outbox is empty).',
    labelNames: [],
    owners: ['contacts', 'automation'],
  },
} as const satisfies Record<string, MetricDefinition>;

export type MetricKey = keyof typeof METRICS;

/** The catalogue entries a service owns. */
export const metricsOwnedBy = (service: ServiceName): MetricDefinition[] =>
  Object.values(METRICS).filter((definition: MetricDefinition) => definition.owners.includes(service));
