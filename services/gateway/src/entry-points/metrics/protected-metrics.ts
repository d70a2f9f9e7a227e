import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request } from 'express';
import { metricsRoutes, type Registry } from '@mailer/shared';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` on the public listener, for a scraper on this machine (loopback, after
 * X-Forwarded-For from trusted proxies is resolved) or one that presents `METRICS_TOKEN` as a
 * bearer token. Anyone else falls through to the ordinary chain: IP-limited 404, as if the
 * route did not exist.
 */
export function protectedMetricsRoutes(registry: Registry, token: string): Router {
  const expected = token === '' ? undefined : digest(token);
  const allowed = (req: Request): boolean => {
    if (LOOPBACK.has(req.ip ?? '')) return true;
    const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    // Hashing first makes both sides the same length, so the comparison leaks nothing.
    return expected !== undefined && match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
  const serve = metricsRoutes(registry);
  const router = Router();
  router.get('/metrics', (req, res, next) => {
    if (!allowed(req)) {
      next('router');
      return;
    }
    serve(req, res, next);
  });
  return router;
}
