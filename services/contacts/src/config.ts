import { z } from 'zod';
import { brokerEnv, commonEnvSchema, envFields, loadConfig, postgresEnv } from '@mailer/shared';

export const contactsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3010),
  ...postgresEnv,
  ...brokerEnv,
});

export type ContactsConfig = z.output<typeof contactsEnvSchema>;

export const loadContactsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(contactsEnvSchema, env);
