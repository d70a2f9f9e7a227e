import { z } from 'zod';
import { brokerEnv, commonEnvSchema, internalListenEnv, envFields, inboxEnv, loadConfig, postgresEnv } from '@mailer/shared';

/** What the admin CLI needs: the database, and for an import the broker (a workflow's trigger is routed before it is saved). */
export const automationDatabaseEnvSchema = z.object({ LOG_LEVEL: envFields.logLevel, ...postgresEnv, ...brokerEnv });

const nonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/** How workflow and campaign emails are sent. */
export const sendingEnv = {
  SMTP_URL: envFields.smtpUrl.default('smtp://127.0.0.1:1025'),
  /** Sender of workflow emails: `address` or `Name <address>`. */
  MAIL_FROM: z.string().trim().min(3).default('Mailer <no-reply@mailer.local>'),
  SMTP_POOL_SIZE: envFields.positiveInt(5),
  /** Emails started per second across the SMTP pool, per instance (a token bucket, as a campaign's rate). */
  SEND_RATE_PER_SECOND: envFields.positiveInt(50),
  /** Workflow sends one instance has claimed and in flight at once; unset: SENDS_PER_CONNECTION per SMTP connection. */
  SEND_CONCURRENCY: z.coerce.number().int().positive().optional(),
  /** Attempts of one step (first send included) before it is failed_permanent. */
  SEND_MAX_ATTEMPTS: envFields.positiveInt(8),
  SEND_RETRY_INITIAL_MS: envFields.positiveInt(5000),
  SEND_RETRY_MAX_MS: envFields.positiveInt(30 * 60 * 1000),
  /** How long a claim is held; a claim older than this is presumed crashed and re-sent. */
  SEND_LEASE_MS: envFields.positiveInt(120_000),
  SMTP_TIMEOUT_MS: envFields.positiveInt(30_000),
  RENDER_TIMEOUT_MS: envFields.positiveInt(1000),
  /** Base of the public unsubscribe link (the gateway's REST listener). */
  PUBLIC_BASE_URL: envFields.httpUrl.default('http://127.0.0.1:3000'),
  /** Signs unsubscribe links; derived from INTERNAL_SIGNING_SECRET when unset. */
  UNSUBSCRIBE_SECRET: envFields.secret.optional(),
  /** Seals tracking links and pixels; derived from INTERNAL_SIGNING_SECRET when unset. */
  TRACKING_SECRET: envFields.secret.optional(),
};

export const automationEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3040),
  ...internalListenEnv,
  ...postgresEnv,
  ...inboxEnv,
  ...brokerEnv,
  ...sendingEnv,
  /** How often an instance looks for due sends when nothing woke it up. */
  SCHEDULER_POLL_MS: envFields.positiveInt(500),
  OUTBOX_POLL_MS: nonNegativeInt(500),
  /** Campaign emails per second per account unless the account set its own (sending settings). */
  CAMPAIGN_RATE_PER_SECOND: envFields.positiveInt(100),
  /** Campaign sends in flight at once on one instance (workflow sends have their own SEND_CONCURRENCY); unset: as SEND_CONCURRENCY. */
  CAMPAIGN_SEND_CONCURRENCY: z.coerce.number().int().positive().optional(),
  /** How often a campaign in flight reports its counts to the campaigns service. */
  CAMPAIGN_PROGRESS_MS: envFields.positiveInt(500),
  /** The contacts service's internal API: a campaign sent to a segment reads its members there. */
  CONTACTS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3010'),
});

/**
 * Sends in flight per SMTP connection when SEND_CONCURRENCY is unset. A send holds its slot while
 * it is claimed, rendered, waits for a connection, talks SMTP and has its outcome written; with
 * fewer than about four per connection a connection stands idle between one message and the next
 * (the backlog drain: 64% of nodemailer alone at two per connection, 97% at four;
 * docs/performance.md).
 */
export const SENDS_PER_CONNECTION = 4;

/** Workflow sends one process keeps in flight: SEND_CONCURRENCY, or four per SMTP connection. */
export const sendConcurrencyOf = (config: { SEND_CONCURRENCY?: number | undefined; SMTP_POOL_SIZE: number }): number =>
  config.SEND_CONCURRENCY ?? SENDS_PER_CONNECTION * config.SMTP_POOL_SIZE;

export type AutomationConfig = Omit<z.output<typeof automationEnvSchema>, 'SEND_CONCURRENCY' | 'CAMPAIGN_SEND_CONCURRENCY'> & {
  SEND_CONCURRENCY: number;
  CAMPAIGN_SEND_CONCURRENCY: number;
};
export type AutomationDatabaseConfig = z.output<typeof automationDatabaseEnvSchema>;

export function loadAutomationConfig(env: NodeJS.ProcessEnv = process.env): Readonly<AutomationConfig> {
  const config = loadConfig(automationEnvSchema, env);
  const sendConcurrency = sendConcurrencyOf(config);
  return Object.freeze({
    ...config,
    SEND_CONCURRENCY: sendConcurrency,
    CAMPAIGN_SEND_CONCURRENCY: config.CAMPAIGN_SEND_CONCURRENCY ?? sendConcurrency,
  });
}
