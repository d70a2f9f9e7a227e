import type { RequestListener } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { errorMiddleware, healthRoutes, httpMetrics, notFoundHandler, requestId, traceRequests, type Pool, type Redis, type Registry } from '@mailer/shared';
import { gatewayStatusByCode } from '../../domain/gateway.errors';
import { protectedMetricsRoutes } from '../metrics/protected-metrics';
import { apiDocsRoutes } from '../api-docs/api-docs.routes';
import { homeRoutes } from '../home/home.routes';
import type { ApiDocs } from '../api-docs/api-docs';
import { accessGuard, type AccessDeps } from './access-guard';
import type { AppProxy } from './app-proxy';
import { appErrorPage } from './app-error-page';
import { ProxyLane, type LaneTarget } from './proxy-lane';
import type { UpstreamProxy } from './upstream-proxy';

export interface GatewayAppDeps {
  logger: Logger;
  pool: Pool;
  redis: Redis;
  access: AccessDeps;
  /** The account app (services/web): /app and /settings are its pages. */
  appProxy: AppProxy;
  upstreams: { contacts: UpstreamProxy; campaigns: UpstreamProxy; events: UpstreamProxy; automation: UpstreamProxy };
  /** Addresses (or CIDR ranges) of proxies whose X-Forwarded-For is believed; empty: the socket address. */
  trustProxy: string[];
  /** The merged OpenAPI document behind /api/v1/openapi.json and /docs. */
  apiDocs: ApiDocs;
  /** This instance's metrics registry (both listeners count on it). */
  metrics: Registry;
  /** Lets a non-loopback scraper read /metrics; empty: loopback only. */
  metricsToken: string;
}

function baseApp(deps: GatewayAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', deps.trustProxy.length > 0 ? deps.trustProxy : false);
  app.use(httpMetrics(deps.metrics));
  app.use(requestId());
  app.use(traceRequests('gateway'));
  return app;
}

/**
 * Mounted after the API prefixes, so an API request does not walk their routers first; their
 * paths lie outside those prefixes, so what answers what is unchanged.
 */
function finish(app: Express, deps: GatewayAppDeps, publicGuard: RequestHandler): Express {
  // Probes stay outside the limits: an orchestrator must always be able to ask.
  app.use(
    healthRoutes('gateway', [
      { name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) },
      { name: 'redis', check: async () => void (await deps.redis.ping()) },
    ]),
  );
  app.use(publicGuard, notFoundHandler());
  app.use(errorMiddleware(deps.logger, gatewayStatusByCode));
  return app;
}

/** The keyed prefixes' requests on the proxy lane, everything else through `app`. */
function withProxyLane(app: Express, deps: GatewayAppDeps, guardedPrefix: string, targets: [string, LaneTarget][]): RequestListener {
  const lane = new ProxyLane({ access: deps.access, guardedPrefix, targets, trustProxy: deps.trustProxy, metrics: deps.metrics, logger: deps.logger });
  return lane.listener(app);
}

/** What the REST port listens with: the proxied API on the lane, the rest through `buildRestApp`. */
export function buildRestListener(deps: GatewayAppDeps): RequestListener {
  return withProxyLane(buildRestApp(deps), deps, '/api/v1', [
    ['/api/v1/contacts', deps.upstreams.contacts],
    ['/api/v1/campaigns', deps.upstreams.campaigns],
  ]);
}

/** What the events port listens with: events on the lane, the rest through `buildEventsApp`. */
export function buildEventsListener(deps: GatewayAppDeps): RequestListener {
  return withProxyLane(buildEventsApp(deps), deps, '/v1', [['/v1/events', deps.upstreams.events]]);
}

/**
 * The REST listener: `/api/v1/*` behind an API key; `/unsubscribe/*`, `/t/*` (tracking), the account app (`/app`,
 * `/settings`, proxied to services/web) and the start page `/` public, limited by IP.
 */
export function buildRestApp(deps: GatewayAppDeps): Express {
  const app = baseApp(deps);
  const publicGuard = accessGuard(deps.access, { requireKey: false });
  // On the public port, so guarded: loopback or METRICS_TOKEN (docs/adr/0039-metrics.md).
  app.use(protectedMetricsRoutes(deps.metrics, deps.metricsToken));
  app.use(apiDocsRoutes(deps.apiDocs, publicGuard));
  app.use('/api/v1', accessGuard(deps.access, { requireKey: true }));
  app.use('/api/v1/contacts', deps.upstreams.contacts.handler());
  app.use('/api/v1/campaigns', deps.upstreams.campaigns.handler());
  app.use('/api/v1', notFoundHandler());
  app.use('/unsubscribe', publicGuard, deps.upstreams.automation.handler());
  // Double opt-in's confirm link (automation's page, like unsubscribe).
  app.use('/confirm', publicGuard, deps.upstreams.automation.handler());
  // Each account's hosted subscribe form (contacts' page).
  app.use('/subscribe', publicGuard, deps.upstreams.contacts.handler());
  // Tracked links and the open pixel in emails (the events service records the hit).
  app.use('/t', publicGuard, deps.upstreams.events.handler());
  // The account app keeps the one address users know; /settings is now its settings section.
  app.use(['/app', '/settings'], publicGuard, deps.appProxy.handler(), appErrorPage);
  app.use(homeRoutes(publicGuard));
  return finish(app, deps, publicGuard);
}

/**
 * The events listener: `/v1/events` behind an API key, proxied to the events service whatever the
 * method or sub-path (it answers 405 and 404 for what it does not serve).
 */
export function buildEventsApp(deps: GatewayAppDeps): Express {
  const app = baseApp(deps);
  app.use('/v1', accessGuard(deps.access, { requireKey: true }));
  app.use('/v1/events', deps.upstreams.events.handler());
  app.use('/v1', notFoundHandler());
  return finish(app, deps, accessGuard(deps.access, { requireKey: false }));
}
