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

function joinTemplate(prefix: string, routePath: unknown): string {
  const path = typeof routePath === 'string' ? routePath : String(routePath);
  if (path === '/' && prefix !== '') return prefix;
  return prefix + path;
}

/**
 * Watches the router assign `req.route`: at that moment `req.baseUrl` is the prefix of the router
 * that matched. At `finish` both may have been restored (an error handled further up), so the
 * template is captured here rather than read then.
 */
function captureRouteTemplate(req: Request): () => string | undefined {
  let route: unknown;
  let template: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (path !== undefined) template = joinTemplate(templateOfPrefix(req.baseUrl || ''), path);
    },
  });
  return () => template;
}

/**
 * Counts every response and times it, labelled by method, route TEMPLATE (`/contacts/:id`, never
 * the raw URL) and status. A request no route matched is `unmatched`, unless a middleware mounted
 * on a prefix (a proxy) answered it: then the prefix is the template. Mount it first.
 */
export function httpMetrics(registry: Registry): RequestHandler {
  const requests = counterOf(registry, METRICS.httpRequests);
  const duration = histogramOf(registry, METRICS.httpRequestDuration);
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const template = captureRouteTemplate(req);
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const mounted = req.baseUrl ? templateOfPrefix(req.baseUrl) : undefined;
      const labels = {
        method: req.method,
        route: template() ?? mounted ?? UNMATCHED_ROUTE,
        status: String(res.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', record);
    // A client that hangs up before the end still cost us the work; count it with the status we had.
    res.once('close', record);
    next();
  };
}

/** `GET /metrics`: the registry in Prometheus text format. */
export function metricsRoutes(registry: Registry): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    const body = await registry.metrics();
    res.set('Content-Type', registry.contentType).send(body);
  });
  return router;
}
