import { z } from 'zod';
import { commonEnvSchema, envFields, internalListenEnv, loadConfig, postgresEnv } from '@mailer/shared';

export const webEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3050),
  ...internalListenEnv,
  ...postgresEnv,
  /** The gateway's internal listener: users, accounts and API keys live in its database. */
  GATEWAY_INTERNAL_URL: envFields.httpUrl.default('http://127.0.0.1:3002'),
  CONTACTS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3010'),
  /** Campaigns (compose and drive) and automation (workflows, activity, previews, recipients). */
  CAMPAIGNS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3020'),
  AUTOMATION_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3040'),
  /** Settings → Webhooks: endpoints, secrets and delivery logs. */
  WEBHOOKS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3060'),
  /**
   * Proxies whose X-Forwarded-For/-Proto/-Host are believed (Express `trust proxy` values, comma
   * separated). The gateway is the one in front of us: loopback outside containers.
   */
  TRUST_PROXY: z.string().default('loopback'),
  /** The address people reach the product at (the gateway): the start of every emailed reset link. */
  PUBLIC_BASE_URL: envFields.httpUrl.default('http://127.0.0.1:3000'),
  /** How long a signed-in session lasts without being used. */
  SESSION_TTL_HOURS: envFields.positiveInt(12),
  /** How long a call to another service may take before the page shows a 503. */
  UPSTREAM_TIMEOUT_MS: envFields.positiveInt(10_000),
});

export type WebConfig = z.output<typeof webEnvSchema>;

export const loadWebConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(webEnvSchema, env);
