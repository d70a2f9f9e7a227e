import { z } from 'zod';
import { commonEnvSchema, envFields, loadConfig, postgresEnv, redisEnv } from '@mailer/shared';

export const gatewayEnvSchema = commonEnvSchema.extend({
  GATEWAY_PORT: envFields.port(3000),
  EVENTS_PORT: envFields.port(3001),
  /** The internal listener the account app calls (users, account, API keys); never exposed publicly. */
  GATEWAY_INTERNAL_PORT: envFields.port(3002),
  /** Loopback by default, like every internal service; compose and Kubernetes set 0.0.0.0 in their private network. */
  GATEWAY_INTERNAL_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** The account app (services/web): the gateway routes /app and /settings to it. */
  WEB_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3050'),
  ...postgresEnv,
  ...redisEnv,
  CONTACTS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3010'),
  CAMPAIGNS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3020'),
  /** The events listener's `/v1/events` is proxied here. */
  EVENTS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3030'),
  AUTOMATION_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3040'),
  /** Only for the API document's `webhooks` (the event payloads); nothing is proxied to it. */
  WEBHOOKS_SERVICE_URL: envFields.httpUrl.default('http://127.0.0.1:3060'),
  RATE_LIMIT_KEY_PER_MIN: envFields.positiveInt(1000),
  RATE_LIMIT_KEY_PER_HOUR: envFields.positiveInt(10000),
  RATE_LIMIT_IP_PER_MIN: envFields.positiveInt(300),
  AUTH_FAIL_LIMIT: envFields.positiveInt(50),
  AUTH_FAIL_WINDOW_S: envFields.positiveInt(600),
  /** Comma list of proxy addresses whose X-Forwarded-For is trusted; empty: the socket address is the client. */
  TRUST_PROXY: z.string().default(''),
  /** How long an upstream may take to send its response headers before the client gets a 504. */
  UPSTREAM_TIMEOUT_MS: envFields.positiveInt(10_000),
  /** Listening address of both public listeners; `::` accepts IPv6 and IPv4 (falls back to 0.0.0.0 without IPv6). */
  GATEWAY_HOST: z.string().default('::'),
  /** Connections one client address (IPv4, IPv6 /64) may hold open at once; trusted proxies are exempt. */
  MAX_CONNECTIONS_PER_ADDRESS: envFields.positiveInt(100),
  /** Time a client has to send a request's whole header block. */
  HEADERS_TIMEOUT_MS: envFields.positiveInt(10_000),
  /** Time a client has to send a whole request, body included. */
  REQUEST_TIMEOUT_MS: envFields.positiveInt(30_000),
  /** How long an idle keep-alive connection is kept; behind a load balancer, set it above the balancer's idle timeout. */
  IDLE_TIMEOUT_MS: envFields.positiveInt(5_000),
  /** Largest request line plus headers; larger is a 431. */
  MAX_HEADER_BYTES: envFields.positiveInt(8 * 1024),
  /** The largest request body the gateway forwards (after undoing any Content-Encoding); larger is 413. */
  REQUEST_BODY_LIMIT_BYTES: envFields.positiveInt(1024 * 1024),
  /** Failed settings-screen sign-ins allowed per address (IPv4, IPv6 /64) within SIGNIN_FAIL_WINDOW_S. */
  SIGNIN_FAIL_LIMIT: envFields.positiveInt(10),
  /** Failed sign-ins one user may receive from all addresses together before it is locked for the window. */
  SIGNIN_USER_FAIL_LIMIT: envFields.positiveInt(30),
  SIGNIN_FAIL_WINDOW_S: envFields.positiveInt(900),
  /** Password reset requests (emailed links) per address and per email address within RESET_REQUEST_WINDOW_S. */
  RESET_REQUEST_ADDRESS_LIMIT: envFields.positiveInt(10),
  RESET_REQUEST_EMAIL_LIMIT: envFields.positiveInt(3),
  RESET_REQUEST_WINDOW_S: envFields.positiveInt(3600),
  /** Bearer token that lets a non-loopback scraper read GET /metrics on the public port; empty: loopback only. */
  METRICS_TOKEN: z
    .string()
    .default('')
    .refine((value) => value === '' || value.length >= 16, 'METRICS_TOKEN must be empty or at least 16 characters'),
  /** How long a key row stays in the in-process cache (revocations are seen at once regardless).
   *  At most 10 minutes: revocation markers in Redis must outlive every cached row (they live an hour). */
  KEY_CACHE_TTL_MS: z.coerce.number().int().positive().max(600_000).default(60_000),
  /** A 401 for an API key is answered no sooner than this after the request arrived (no timing oracle on key ids). */
  AUTH_FAILURE_MIN_MS: z.coerce.number().int().min(0).max(1000).default(25),
});

/** One stranger must be stopped by the address limit before the user is locked (docs/security.md). */
const addressLimitBelowUserLock = (config: { SIGNIN_FAIL_LIMIT: number; SIGNIN_USER_FAIL_LIMIT: number }) =>
  config.SIGNIN_FAIL_LIMIT < config.SIGNIN_USER_FAIL_LIMIT;

export type GatewayConfig = z.output<typeof gatewayEnvSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(
    gatewayEnvSchema.refine(addressLimitBelowUserLock, {
      message: 'must be greater than SIGNIN_FAIL_LIMIT (one address must be stopped before it can lock a user)',
      path: ['SIGNIN_USER_FAIL_LIMIT'],
    }),
    env,
  );
