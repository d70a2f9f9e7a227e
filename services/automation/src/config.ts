import { z } from 'zod';
import { brokerEnv, commonEnvSchema, envFields, loadConfig, postgresEnv } from '@mailer/shared';

export const automationEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3040),
  ...postgresEnv,
  ...brokerEnv,
});

export type AutomationConfig = z.output<typeof automationEnvSchema>;

export const loadAutomationConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(automationEnvSchema, env);
