import { z } from 'zod';
import {
  brokerEnv,
  commonEnvSchema,
  internalListenEnv,
  emailDomainEnv,
  envFields,
  inboxEnv,
  loadConfig,
  postgresEnv,
  redisEnv,
} from '@mailer/shared';

export const contactsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3010),
  ...internalListenEnv,
  ...postgresEnv,
  ...inboxEnv,
  ...brokerEnv,
  ...redisEnv,
  ...emailDomainEnv,
  /** How often the outbox relay looks for unpublished rows when idle. */
  OUTBOX_POLL_MS: envFields.positiveInt(100),
});

export type ContactsConfig = z.output<typeof contactsEnvSchema>;

export const loadContactsConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(contactsEnvSchema, env);

/** The operator CLI only needs its database: no signing secret, no broker, no DNS. Quiet unless asked. */
export const contactsCliEnvSchema = z.object({
  LOG_LEVEL: envFields.logLevel.unwrap().default('warn'),
  ...postgresEnv,
});

export const loadContactsCliConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(contactsCliEnvSchema, env);
