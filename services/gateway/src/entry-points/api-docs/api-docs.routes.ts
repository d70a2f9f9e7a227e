import { Router, type RequestHandler } from 'express';
import { methodNotAllowed } from '@mailer/shared';
import type { ApiDocs } from './api-docs';
import { docsPage } from './docs-page';

/**
 * `GET /api/v1/openapi.json` and `GET /docs`: public (no key), limited by IP like every public route.
 * Registered before the key guard of `/api/v1`, and only for these two exact paths.
 */
export function apiDocsRoutes(docs: ApiDocs, publicGuard: RequestHandler): Router {
  const router = Router();
  router
    .route('/api/v1/openapi.json')
    .get(publicGuard, async (_req, res) => {
      res.set('Cache-Control', 'public, max-age=60').json(await docs.document());
    })
    .all(publicGuard, methodNotAllowed(['GET']));
  router
    .route('/docs')
    .get(publicGuard, async (_req, res) => {
      const page = docsPage(await docs.document());
      res.set({
        'Content-Security-Policy': "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'",
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=60',
      });
      res.type('html').send(page);
    })
    .all(publicGuard, methodNotAllowed(['GET']));
  return router;
}
