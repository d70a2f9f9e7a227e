import { Router, type RequestHandler } from 'express';
import { methodNotAllowed } from '@mailer/shared';
import { homePage } from './home.page';

// Rendered once: the page has no per-request content.
const PAGE = homePage();

/** `GET /` on the REST listener: public, limited by IP like every public route; other methods 405. */
export function homeRoutes(publicGuard: RequestHandler): Router {
  const router = Router();
  router
    .route('/')
    .get(publicGuard, (_req, res) => {
      res.set({
        'Content-Security-Policy': "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
        'Cache-Control': 'public, max-age=300',
      });
      res.type('html').send(PAGE);
    })
    .all(publicGuard, methodNotAllowed(['GET', 'HEAD']));
  return router;
}
