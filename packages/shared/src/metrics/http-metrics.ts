import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Router } from 'express';
import type { Registry } from 'prom-client';
import { METRICS } from './metric-catalogue';
import { counterOf, histogramOf } from './registry';

export const UNMATCHED_ROUTE = 'unmatched';

/** A path segment that is a value, not a name: digits, UUIDs, long tokens with digits. */
const VALUE_SEGMENT =
  /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{16,})$/i;

/**
 * `baseUrl` is the matched prefix (`/accounts/42` for a router mounted at `/accounts/:id`), not
 * its pattern; value-like segments become `:id` so a label never carries an identifier.
 */
function templateOfPrefix(baseUrl: string): string {
  return baseUrl
    .split('/')
    .map((segment) => (VALUE_SEGMENT.test(segment) ? ':id' : segment))
    .join('/');
}

/** Templates of prefixes seen so far; bounded, since a prefix may carry a raw value (`/accounts/42`). */
const prefixTemplates = new Map<string, string>();
const MAX_CACHED_PREFIXES = 1000;

function cachedTemplateOfPrefix(baseUrl: string): string {
  let template = prefixTemplates.get(baseUrl);
  if (template === undefined) {
    template = templateOfPrefix(baseUrl);
    if (prefixTemplates.size < MAX_CACHED_PREFIXES) prefixTemplates.set(baseUrl, template);
  }
  return template;
}

function joinTemplate(prefix: string, routePath: unknown): string {
  const path = typeof routePath === 'string' ? routePath : String(routePath);
  if (path === '/' && prefix !== '') return prefix;
  return prefix + path;
}

const ROUTE = Symbol('route');
const ROUTE_PREFIX = Symbol('routePrefix');

interface TrackedRequest extends Request {
  [ROUTE]?: { path?: unknown };
  [ROUTE_PREFIX]?: string;
}

const tracked = new WeakSet<object>();

/**
 * The router assigns `req.route` when a route matches; at that moment `req.baseUrl` is the prefix
 * of the router that matched, and by `finish` it may have been restored (an error handled further
 * up). An accessor on the app's request prototype (each express app has its own) keeps both, once
 * per app rather than a property definition per request, which cost more than the counting.
 */
function trackRouteAssignments(req: Request): void {
  const prototype = Object.getPrototypeOf(req) as object | null;
  if (prototype === null || tracked.has(prototype)) return;
  tracked.add(prototype);
  Object.defineProperty(prototype, 'route', {
    configurable: true,
    get(this: TrackedRequest) {
      return this[ROUTE];
    },
    set(this: TrackedRequest, value: { path?: unknown } | undefined) {
      this[ROUTE] = value;
      this[ROUTE_PREFIX] = this.baseUrl || '';
    },
  });
}

function routeLabel(req: TrackedRequest): string {
  const path = req[ROUTE]?.path;
  if (path !== undefined) return joinTemplate(cachedTemplateOfPrefix(req[ROUTE_PREFIX] ?? ''), path);
  return req.baseUrl ? cachedTemplateOfPrefix(req.baseUrl) : UNMATCHED_ROUTE;
}

/** Bounds the label combinations cached below (method, route template, status are few). */
const MAX_CACHED_SERIES = 2000;

/**
 * Counts and times answered requests, labelled by method, route TEMPLATE and status. Each
 * combination's counter and histogram series are looked up once: resolving labels per request
 * cost more than the observation itself.
 */
export function httpRequestRecorder(registry: Registry): (method: string, route: string, status: number, startedNs: bigint) => void {
  const requests = counterOf(registry, METRICS.httpRequests);
  const duration = histogramOf(registry, METRICS.httpRequestDuration);
  const series = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();
  return (method, route, status, startedNs) => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (found === undefined) {
      const labels = { method, route, status: String(status) };
      found = { count: requests.labels(labels), time: duration.labels(labels) };
      if (series.size < MAX_CACHED_SERIES) series.set(key, found);
    }
    found.count.inc();
    found.time.observe(Number(process.hrtime.bigint() - startedNs) / 1e9);
  };
}

/**
 * Counts every response and times it (see httpRequestRecorder), labelled by route TEMPLATE
 * (`/contacts/:id`, never the raw URL). A request no route matched is `unmatched`, unless a
 * middleware mounted on a prefix (a proxy) answered it: then the prefix is the template. Mount it
 * first. Per request: one listener, a clock read, one counter increment and one observation.
 */
export function httpMetrics(registry: Registry): RequestHandler {
  const record = httpRequestRecorder(registry);
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    trackRouteAssignments(req);
    // `close` follows `finish` on every response (Node >= 16) and also fires when the client hangs
    // up first: one listener counts both, with the status we had.
    res.once('close', () => record(req.method, routeLabel(req), res.statusCode, started));
    next();
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics`: the registry in Prometheus text format. With a `token` (METRICS_TOKEN), only a
 * scraper that presents it as a bearer token is answered; anyone else gets a 401.
 */
export function metricsRoutes(registry: Registry, token = ''): Router {
  const expected = token === '' ? undefined : digest(token);
  const router = Router();
  router.get('/metrics', async (req, res) => {
    if (expected) {
      const presented = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
      // Both sides hashed to one length, so the comparison tells nothing about the token.
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: 'metrics need the METRICS_TOKEN bearer token' });
        return;
      }
    }
    const body = await registry.metrics();
    res.set('Content-Type', registry.contentType).send(body);
  });
  return router;
}
