import { z } from 'zod';
import { brokerEnv, commonEnvSchema, envFields, loadConfig, postgresEnv } from '@mailer/shared';

export const campaignsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3020),
  ...postgresEnv,
  ...brokerEnv,
});

export type CampaignsConfig = z.output<typeof campaignsEnvSchema>;

export const loadCampaignsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(campaignsEnvSchema, env);
