import { z } from 'zod';
import { commonEnvSchema, envFields, loadConfig, postgresEnv, redisEnv } from '@mailer/shared';

export const gatewayEnvSchema = commonEnvSchema.extend({
  GATEWAY_PORT: envFields.port(3000),
  EVENTS_PORT: envFields.port(3001),
  ...postgresEnv,
  ...redisEnv,
  CONTACTS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3010'),
  CAMPAIGNS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3020'),
  EVENTS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3030'),
  AUTOMATION_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3040'),
  RATE_LIMIT_KEY_PER_MIN: envFields.positiveInt(1000),
  RATE_LIMIT_KEY_PER_HOUR: envFields.positiveInt(10000),
  RATE_LIMIT_IP_PER_MIN: envFields.positiveInt(300),
  AUTH_FAIL_LIMIT: envFields.positiveInt(50),
  AUTH_FAIL_WINDOW_S: envFields.positiveInt(600),
  /** Comma list of proxy addresses whose X-Forwarded-For is trusted; empty: the socket address is the client. */
  TRUST_PROXY: z.string().default(''),
  /** How long an upstream may take to send its response headers before the client gets a 504. */
  UPSTREAM_TIMEOUT_MS: envFields.positiveInt(10_000),
  /** Failed settings-screen sign-ins allowed per IP and per email within SIGNIN_FAIL_WINDOW_S. */
  SIGNIN_FAIL_LIMIT: envFields.positiveInt(10),
  SIGNIN_FAIL_WINDOW_S: envFields.positiveInt(900),
  /** How long a key row stays in the in-process cache (revocations are seen at once regardless).
   *  At most 10 minutes: revocation markers in Redis must outlive every cached row (they live an hour). */
  /** Bearer token that lets a non-loopback scraper read GET /metrics on the public port; empty: loopback only. */
  METRICS_TOKEN: z
    .string()
    .default('')
    .refine((value) => value === '' || value.length >= 16, 'METRICS_TOKEN must be empty or at least 16 characters'),
  KEY_CACHE_TTL_MS: z.coerce.number().int().positive().max(600_000).default(60_000),
});

export type GatewayConfig = z.output<typeof gatewayEnvSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(gatewayEnvSchema, env);
