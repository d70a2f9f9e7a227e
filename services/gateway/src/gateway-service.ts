import type { Logger } from 'pino';
import { Broker, createMetricsRegistry, createPool, createRedis, emailDomainValidatorFor, listen, logStarted, migrateDatabase, stopInOrder, triggerRoutesSetKey } from '@mailer/shared';
import type { GatewayConfig } from './config';

import { automationDatabaseUrl, EventEnrolments } from '@mailer/automation/event-enrolments';
import { EventContacts } from '@mailer/contacts/event-contacts';
import { ContactCreates } from '@mailer/contacts/public-creates';
import { ContactReads, contactsDatabaseUrl } from '@mailer/contacts/public-reads';
import { gatewayDatabaseUrl, MIGRATIONS_DIR } from './database';
import { findCredentials } from './data-access/api-keys.repository';
import { IdempotencyRepository } from './data-access/idempotency.repository';
import { LastUsedRecorder } from './data-access/last-used-recorder';
import { ResilientLimiter } from './data-access/resilient-limiter';
import { markRevokedInRedis } from './data-access/revocation-marker';
import { SignInThrottle } from './data-access/sign-in-throttle';
import { TriggerRoutes } from './data-access/trigger-routes';
import { KeyAuthenticator } from './domain/key-authenticator';
import type { LimitSettings } from './domain/rate-limit';
import { buildEventsListener, buildRestListener } from './entry-points/api/app';
import { buildInternalApp } from './entry-points/internal/internal-app';
import { UpstreamProxy } from './entry-points/api/upstream-proxy';
import { ContactsTarget } from './entry-points/api/contacts-target';
import { EventIngest } from './entry-points/api/event-ingest';
import { queuedEvents } from './domain/events/queue-events';
import { ingestMetrics } from './entry-points/api/ingest-metrics';
import { eventsOpenApiFragment } from './entry-points/api-docs/events-openapi';
import { ApiDocs } from './entry-points/api-docs/api-docs';
import { accessMetrics } from './entry-points/metrics/access-metrics';
import { AppProxy } from './entry-points/api/app-proxy';
import { listenPublicly, publicListenerOptions } from './entry-points/public-listener';

/** Connections to contacts' database for its reads: a read is one short statement. */
const CONTACT_READS_CONNECTIONS = 10;
/**
 * Connections to contacts' database for the events' upserts, when they are made here: the common
 * case is one statement shared by the events in flight, the rest a short transaction each.
 */
const EVENT_CONTACTS_CONNECTIONS = 10;
/**
 * Connections to automation's database for the events' enrolments (one statement per event a
 * workflow listens to) and the outcomes of the first emails sent here (one statement shared by the
 * outcomes in flight).
 */
const EVENT_ENROLMENTS_CONNECTIONS = 10;
/** Connections to contacts' database for its creates: the creates in flight share one statement. */
const CONTACT_CREATES_CONNECTIONS = 5;

/** An address as it stands in a URL (IPv6 in brackets). */
const hostForUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

export const limitSettings = (config: GatewayConfig): LimitSettings => ({
  keyPerMin: config.RATE_LIMIT_KEY_PER_MIN,
  keyPerHour: config.RATE_LIMIT_KEY_PER_HOUR,
  ipPerMin: config.RATE_LIMIT_IP_PER_MIN,
  authFailLimit: config.AUTH_FAIL_LIMIT,
  authFailWindowMs: config.AUTH_FAIL_WINDOW_S * 1000,
});

/** Composition root: migrate, connect, serve the REST listener and the events listener. */
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
    automation: upstream('automation', config.AUTOMATION_SERVICE_URL),
  };
  // Contacts creates and migrates this database; until it has, the reads and the events' upserts answer 503.
  const contactsDatabase = contactsDatabaseUrl({ DATABASE_URL: config.CONTACTS_DATABASE_URL, POSTGRES_URL: config.POSTGRES_URL, DB_PREFIX: config.DB_PREFIX });
  // The verdict contacts gives (shared code, shared Redis cache): an address contacts would refuse is a 422.
  const emailValidator = emailDomainValidatorFor(config, redis, logger);
  const contactReads =
    config.CONTACTS_READS === 'in-process'
      ? ContactReads.connect({ databaseUrl: contactsDatabase, poolSize: CONTACT_READS_CONNECTIONS, logger })
      : undefined;
  // Only where the gateway writes contacts' tables anyway (the events' upserts): a deployment that
  // gives it a read-only role there (`PRODUCT_EVENTS_UPSERTED_BY=automation`) has its creates proxied.
  const writesContacts = config.PRODUCT_EVENTS_UPSERTED_BY === 'gateway' && contactReads !== undefined;
  const contactCreates = writesContacts
    ? ContactCreates.connect({ databaseUrl: contactsDatabase, poolSize: CONTACT_CREATES_CONNECTIONS, logger, emailValidator })
    : undefined;
  // Connects in the background: until it does (and whenever it is down) events are a 503, the rest is served.
  const broker = Broker.start({ url: config.AMQP_URL, namespace: config.BROKER_NAMESPACE, logger, connectionName: 'gateway', metrics });
  // Automation creates and migrates this database; until it has, an event a workflow listens to is a 503.
  const automationDatabase = automationDatabaseUrl({ DATABASE_URL: config.AUTOMATION_DATABASE_URL, POSTGRES_URL: config.POSTGRES_URL, DB_PREFIX: config.DB_PREFIX });
  const enrolsEvents = writesContacts && config.PRODUCT_EVENTS_ENROLLED_BY === 'gateway';
  // The first email of an event enrolled here leaves from here too: no process woken between the two.
  const sendsFirstEmails = enrolsEvents && config.FIRST_EMAILS_SENT_BY === 'gateway';
  const eventEnrolments =
    enrolsEvents
      ? EventEnrolments.connect({
          databaseUrl: automationDatabase,
          poolSize: EVENT_ENROLMENTS_CONNECTIONS,
          logger,
          mailFrom: config.MAIL_FROM,
          firstEmails: sendsFirstEmails ? { sending: config, metrics } : undefined,
        })
      : undefined;
  // With proxy reads the gateway keeps off contacts' database: the events are queued, and automation,
  // which consumes the queue under `gateway` too, upserts them.
  const eventContacts = writesContacts
    ? EventContacts.connect({
        databaseUrl: contactsDatabase,
        poolSize: EVENT_CONTACTS_CONNECTIONS,
        logger,
        broker,
        deliverAccepted: eventEnrolments && ((enriched) => eventEnrolments.enrol(enriched)),
      })
    : undefined;
  const triggerRoutes = new TriggerRoutes(redis, triggerRoutesSetKey({ amqpUrl: config.AMQP_URL, namespace: config.BROKER_NAMESPACE }));
  const eventIngest = new EventIngest(
    {
      accept: eventContacts ? (event) => eventContacts.accept(event, triggerRoutes.mayTrigger(event.account_id, event.event)) : queuedEvents(broker),
      idempotency: new IdempotencyRepository(redis, config.IDEMPOTENCY_TTL_S, logger),
      emailValidator,
      logger,
    },
    ingestMetrics(metrics),
  );
  const appProxy = new AppProxy({ url: config.WEB_SERVICE_URL, timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger });
  const deps = {
    logger,
    pool,
    redis,
    upstreams,
    contactsTarget: contactReads ? new ContactsTarget(upstreams.contacts, contactReads, contactCreates) : upstreams.contacts,
    events: eventIngest,
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
        { name: 'events', fragment: eventsOpenApiFragment, server: 'events' },
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
    'contacts database': contactReads ? contactsDatabase : undefined,
    'automation database (enrolments)': eventEnrolments ? automationDatabase : undefined,
    'smtp (first emails)': sendsFirstEmails ? config.SMTP_URL : undefined,
    campaigns: config.CAMPAIGNS_SERVICE_URL,
    rabbitmq: config.AMQP_URL,
    automation: config.AUTOMATION_SERVICE_URL,
    web: config.WEB_SERVICE_URL,
  });
  return {
    url: api.url,
    eventsUrl: events.url,
    internalUrl: internal.url,
    pool,
    redis,
    broker,
    metrics,
    stop: () =>
      stopInOrder([
        () => Promise.all([api.close(), events.close(), internal.close()]),
        () => Promise.all([...Object.values(upstreams).map((proxy) => proxy.close()), appProxy.close()]),
        async () => limiter.stop(),
        () => broker.close(),
        () => Promise.all([pool.end(), contactReads?.close(), contactCreates?.close(), eventContacts?.close(), eventEnrolments?.close()]),
        async () => redis.disconnect(),
      ]),
  };
}
