import { z } from 'zod';
import { brokerEnv, commonEnvSchema, envFields, internalListenEnv, loadConfig, postgresEnv } from '@mailer/shared';

const flag = z.enum(['true', 'false', '1', '0', '']).default('false').transform((value) => value === 'true' || value === '1');

const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );

/** Svix's schedule, the one Standard Webhooks suggests: 8 attempts over about 27 hours. */
const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const durationMs = (text: string): number | undefined => {
  const match = /^(\d+)(ms|s|m|h)$/.exec(text);
  if (!match) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
};

const retrySchedule = z
  .string()
  .default(DEFAULT_RETRY_SCHEDULE)
  .transform((value, ctx) => {
    const delays = value.split(',').map((item) => durationMs(item.trim()));
    if (delays.length === 0 || delays.some((delay) => delay === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of durations such as 5s,5m,2h' });
      return z.NEVER;
    }
    return delays as number[];
  });

export const webhooksEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3060),
  ...internalListenEnv,
  ...postgresEnv,
  ...brokerEnv,
  /** Deliver to private, loopback and link-local addresses too (a closed network; never on a shared host). */
  WEBHOOK_ALLOW_PRIVATE: flag,
  /** Hosts or CIDR ranges exempt from the private-address rule (`hooks.internal,10.1.0.0/16`). */
  WEBHOOK_ALLOWED_HOSTS: commaList,
  /** Whole-request limit of one delivery attempt: connect, send, and read the answer. */
  WEBHOOK_TIMEOUT_MS: envFields.positiveInt(5000),
  /** Bytes of an endpoint's answer read at most (the log keeps the first KiB). */
  WEBHOOK_RESPONSE_LIMIT_BYTES: envFields.positiveInt(65_536),
  /** Waits between attempts after the first; after the last, the delivery failed and the endpoint is failing. */
  WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  /** Attempts in flight at once across all endpoints (each endpoint has at most one). */
  WEBHOOK_CONCURRENCY: envFields.positiveInt(32),
  /** How long the previous secret still signs after a rotation (both signatures are sent). */
  WEBHOOK_SECRET_OVERLAP_MS: envFields.positiveInt(24 * 3_600_000),
  /** How often due deliveries are looked for when nothing woke the worker. */
  WEBHOOK_POLL_MS: envFields.positiveInt(250),
});

export type WebhooksConfig = z.output<typeof webhooksEnvSchema>;

export const loadWebhooksConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(webhooksEnvSchema, env);

/** The operator CLI needs its database and the address policy for new URLs. Quiet unless asked. */
export const webhooksCliEnvSchema = z.object({
  LOG_LEVEL: envFields.logLevel.unwrap().default('warn'),
  ...postgresEnv,
  WEBHOOK_ALLOW_PRIVATE: flag,
  WEBHOOK_ALLOWED_HOSTS: commaList,
  WEBHOOK_SECRET_OVERLAP_MS: envFields.positiveInt(24 * 3_600_000),
});

export type WebhooksCliConfig = z.output<typeof webhooksCliEnvSchema>;

export const loadWebhooksCliConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(webhooksCliEnvSchema, env);
