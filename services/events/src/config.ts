import { z } from 'zod';
import { brokerEnv, commonEnvSchema, envFields, loadConfig } from '@mailer/shared';

export const eventsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3030),
  ...brokerEnv,
});

export type EventsConfig = z.output<typeof eventsEnvSchema>;

export const loadEventsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(eventsEnvSchema, env);
