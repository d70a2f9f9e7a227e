import type { Logger } from 'pino';
import { createMetricsRegistry, createPool, createRedis, listen, logStarted, migrateDatabase, stopInOrder } from '@mailer/shared';
import type { GatewayConfig } from './config';
import { gatewayDatabaseUrl, MIGRATIONS_DIR } from './database';
import { findCredentials } from './data-access/api-keys.repository';
import { LastUsedRecorder } from './data-access/last-used-recorder';
import { ResilientLimiter } from './data-access/resilient-limiter';
import { markRevokedInRedis } from './data-access/revocation-marker';
import { SignInThrottle } from './data-access/sign-in-throttle';
import { KeyAuthenticator } from './domain/key-authenticator';
import type { LimitSettings } from './domain/rate-limit';
import { buildEventsListener, buildRestListener } from './entry-points/api/app';
import { buildInternalApp } from './entry-points/internal/internal-app';
import { UpstreamProxy } from './entry-points/api/upstream-proxy';
import { ApiDocs } from './entry-points/api-docs/api-docs';
import { accessMetrics } from './entry-points/metrics/access-metrics';
import { AppProxy } from './entry-points/api/app-proxy';
import { listenPublicly, publicListenerOptions } from './entry-points/public-listener';

/** An address as it stands in a URL (IPv6 in brackets). */
const hostForUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

export const limitSettings = (config: GatewayConfig): LimitSettings => ({
  keyPerMin: config.RATE_LIMIT_KEY_PER_MIN,
  keyPerHour: config.RATE_LIMIT_KEY_PER_HOUR,
  ipPerMin: config.RATE_LIMIT_IP_PER_MIN,
  authFailLimit: config.AUTH_FAIL_LIMIT,
  authFailWindowMs: config.AUTH_FAIL_WINDOW_S * 1000,
});

/** Composition root: migrate, connect, serve the REST and events listeners (both proxying inward) and the internal one. */
export async function startGatewayService(config: GatewayConfig, logger: Logger) {
  const databaseUrl = gatewayDatabaseUrl(config);
  // One registry per instance: two gateways in one test process keep separate numbers.
  const metrics = createMetricsRegistry('gateway');
  const access = accessMetrics(metrics);
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  const redis = createRedis(config.REDIS_URL, logger, { keyPrefix: config.REDIS_KEY_PREFIX });
  const authenticator = new KeyAuthenticator((keyId) => findCredentials(pool, keyId), {
    ttlMs: config.KEY_CACHE_TTL_MS,
    maxEntries: 10_000,
  });
  // Redis may have restarted empty (revocation markers lost): cached rows are re-read after a reconnect.
  redis.on('ready', () => authenticator.clear());
  const limiter = new ResilientLimiter(redis, limitSettings(config), logger);
  const lastUsed = new LastUsedRecorder(pool, logger);
  const upstream = (name: string, url: string) =>
    new UpstreamProxy({
      name,
      url,
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      maxBodyBytes: config.REQUEST_BODY_LIMIT_BYTES,
      logger,
    });
  const upstreams = {
    contacts: upstream('contacts', config.CONTACTS_SERVICE_URL),
    campaigns: upstream('campaigns', config.CAMPAIGNS_SERVICE_URL),
    events: upstream('events', config.EVENTS_SERVICE_URL),
    automation: upstream('automation', config.AUTOMATION_SERVICE_URL),
  };
  const appProxy = new AppProxy({ url: config.WEB_SERVICE_URL, timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger });
  const deps = {
    logger,
    pool,
    redis,
    upstreams,
    access: {
      authenticator,
      limiter,
      logger,
      keyUsed: (id: number) => lastUsed.used(id),
      metrics: access,
      authFailureMinMs: config.AUTH_FAILURE_MIN_MS,
    },
    appProxy,
    metrics,
    metricsToken: config.METRICS_TOKEN,
    apiDocs: new ApiDocs({
      logger,
      version: '1.0.0',
      sources: [
        { name: 'contacts', url: config.CONTACTS_SERVICE_URL, server: 'rest' },
        { name: 'campaigns', url: config.CAMPAIGNS_SERVICE_URL, server: 'rest' },
        { name: 'events', url: config.EVENTS_SERVICE_URL, server: 'events' },
        // Describes payloads the account receives, not the API: without it the API is still documented.
        { name: 'webhooks', url: config.WEBHOOKS_SERVICE_URL, server: 'rest', optional: true },
      ],
    }),
    trustProxy: config.TRUST_PROXY.split(',').map((entry) => entry.trim()).filter(Boolean),
  };
  const publicListener = publicListenerOptions(config, limiter, logger);
  const api = await listenPublicly(buildRestListener(deps), config.GATEWAY_PORT, config.GATEWAY_HOST, publicListener);
  const events = await listenPublicly(buildEventsListener(deps), config.EVENTS_PORT, config.GATEWAY_HOST, publicListener);
  const internal = await listen(
    buildInternalApp({
      logger,
      pool,
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      throttle: new SignInThrottle(redis, {
        perAddress: config.SIGNIN_FAIL_LIMIT,
        perUser: config.SIGNIN_USER_FAIL_LIMIT,
        windowSeconds: config.SIGNIN_FAIL_WINDOW_S,
      }),
      resetThrottle: new SignInThrottle(
        redis,
        { perAddress: config.RESET_REQUEST_ADDRESS_LIMIT, perUser: config.RESET_REQUEST_EMAIL_LIMIT, windowSeconds: config.RESET_REQUEST_WINDOW_S },
        'gw:reset',
      ),
      onSignInFailed: () => access.authFailed('signin'),
      announceRevocation: async (keyId: string) => {
        // This instance forgets the row at once; the Redis marker tells the others.
        authenticator.evict(keyId);
        await markRevokedInRedis(redis, keyId).catch((error: unknown) =>
          logger.error({ err: error, keyId }, 'could not announce a key revocation in Redis; other instances see it when their cache expires'),
        );
      },
    }),
    config.GATEWAY_INTERNAL_PORT,
    config.GATEWAY_INTERNAL_HOST,
  );
  logStarted(logger, 'gateway', [`REST http://${hostForUrl(config.GATEWAY_HOST)}:${api.port}`, `events http://${hostForUrl(config.GATEWAY_HOST)}:${events.port}`, `internal http://${config.GATEWAY_INTERNAL_HOST}:${internal.port}`], {
    postgres: databaseUrl,
    redis: config.REDIS_URL,
    contacts: config.CONTACTS_SERVICE_URL,
    campaigns: config.CAMPAIGNS_SERVICE_URL,
    events: config.EVENTS_SERVICE_URL,
    automation: config.AUTOMATION_SERVICE_URL,
    web: config.WEB_SERVICE_URL,
  });
  return {
    url: api.url,
    eventsUrl: events.url,
    internalUrl: internal.url,
    pool,
    redis,
    metrics,
    stop: () =>
      stopInOrder([
        () => Promise.all([api.close(), events.close(), internal.close()]),
        () => Promise.all([...Object.values(upstreams).map((proxy) => proxy.close()), appProxy.close()]),
        async () => limiter.stop(),
        () => pool.end(),
        async () => redis.disconnect(),
      ]),
  };
}
