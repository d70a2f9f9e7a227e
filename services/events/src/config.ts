import { z } from 'zod';
import { brokerEnv, commonEnvSchema, emailDomainEnv, envFields, internalListenEnv, loadConfig, redisEnv } from '@mailer/shared';

export const eventsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3030),
  ...internalListenEnv,
  /** Every accepted event is published here, each confirmed before its 202. */
  ...brokerEnv,
  /** Idempotency records, and the domain verdicts contacts caches too. */
  ...redisEnv,
  /** The email-domain verdict contacts gives, asked before an event is accepted. */
  ...emailDomainEnv,
  /** How long a retried POST with the same `Idempotency-Key` replays the first answer. */
  IDEMPOTENCY_TTL_S: envFields.positiveInt(24 * 60 * 60),
  /** Opens tracking links and pixels; the same value as automation's (both derive it from INTERNAL_SIGNING_SECRET when unset). */
  TRACKING_SECRET: envFields.secret.optional(),
});

export type EventsConfig = z.output<typeof eventsEnvSchema>;

export const loadEventsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(eventsEnvSchema, env);
