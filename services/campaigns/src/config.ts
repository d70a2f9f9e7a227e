import { z } from 'zod';
import { brokerEnv, commonEnvSchema, internalListenEnv, envFields, inboxEnv, loadConfig, postgresEnv } from '@mailer/shared';

export const campaignsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3020),
  ...internalListenEnv,
  ...postgresEnv,
  ...inboxEnv,
  ...brokerEnv,
  /** How often the outbox is checked for rows written by another process (the operator CLI). */
  CAMPAIGNS_OUTBOX_POLL_MS: envFields.positiveInt(200),
  /** How often scheduled campaigns are checked for a send_at that has passed. */
  CAMPAIGNS_SCHEDULER_POLL_MS: envFields.positiveInt(500),
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
