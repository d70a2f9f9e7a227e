import { z } from 'zod';

/** Reusable environment fields, so every service reads a variable the same way. */

const urlWithProtocols = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

export const envFields = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  postgresUrl: urlWithProtocols(['postgres:', 'postgresql:']),
  redisUrl: urlWithProtocols(['redis:', 'rediss:']),
  amqpUrl: urlWithProtocols(['amqp:', 'amqps:']),
  smtpUrl: urlWithProtocols(['smtp:', 'smtps:']),
  httpUrl: urlWithProtocols(['http:', 'https:']),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  secret: z.string().min(32, 'must be at least 32 characters'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  dbPrefix: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'must be lower-case letters, digits and underscores')
    .default('mailer_'),
};

/** Bearer token a scraper must present for GET /metrics; empty: metrics are open on that listener. */
const metricsToken = z
  .string()
  .default('')
  .refine((value) => value === '' || value.length >= 16, 'METRICS_TOKEN must be empty or at least 16 characters');

/** The variables every service reads. */
export const commonEnvSchema = z.object({
  LOG_LEVEL: envFields.logLevel,
  INTERNAL_SIGNING_SECRET: envFields.secret,
  METRICS_TOKEN: metricsToken,
});

/**
 * Where an internal service listens. Loopback by default, so outside compose and Kubernetes (which
 * set `HOST=0.0.0.0` inside their private network) nothing but this machine reaches it.
 */
export const internalListenEnv = {
  HOST: z.string().trim().min(1).default('127.0.0.1'),
};

/** Where a service finds Postgres: `DATABASE_URL`, or its own database on `POSTGRES_URL`. */
export const postgresEnv = {
  POSTGRES_URL: envFields.postgresUrl.default('postgres://postgres@127.0.0.1:5432/postgres'),
  DATABASE_URL: envFields.postgresUrl.optional(),
  DB_PREFIX: envFields.dbPrefix,
};

/** For a service with an inbox (`processed_messages`): how many days a consumed message's id is kept. */
export const inboxEnv = {
  INBOX_RETENTION_DAYS: envFields.positiveInt(7),
};

export const brokerEnv = {
  AMQP_URL: envFields.amqpUrl.default('amqp://guest:guest@127.0.0.1:5672'),
  /**
   * Prefix of every exchange and queue name; lets stacks and test runs share a vhost without
   * crosstalk. A separator is added when it ends without one (`staging` → `staging.mailer.events`).
   */
  BROKER_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9._-]*$/, 'must be lower-case letters, digits, dots, dashes or underscores')
    .default('')
    .transform((namespace) => (namespace === '' || /[._-]$/.test(namespace) ? namespace : `${namespace}.`)),
};

export const redisEnv = {
  REDIS_URL: envFields.redisUrl.default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().default(''),
};
