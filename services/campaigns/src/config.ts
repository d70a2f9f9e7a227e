import { z } from 'zod';
import { brokerEnv, commonEnvSchema, envFields, loadConfig, postgresEnv } from '@mailer/shared';

export const campaignsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3020),
  ...postgresEnv,
  ...brokerEnv,
});

export type CampaignsConfig = z.output<typeof campaignsEnvSchema>;

export const loadCampaignsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(campaignsEnvSchema, env);

/** The operator CLI only needs its database: no signing secret, no broker. Quiet unless asked. */
export const campaignsCliEnvSchema = z.object({
  LOG_LEVEL: envFields.logLevel.unwrap().default('warn'),
  ...postgresEnv,
});

export type CampaignsCliConfig = z.output<typeof campaignsCliEnvSchema>;

export const loadCampaignsCliConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(campaignsCliEnvSchema, env);
