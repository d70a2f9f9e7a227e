import { readFileSync } from 'node:fs';
import { Router } from 'express';
import { SCRIPT, STYLESHEET } from '../pages/assets';

// The pinned htmx from its npm package, read once at start: no build step, no CDN.
const HTMX = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8');

/** /app/assets: the stylesheet, the small script and htmx, cacheable for an hour. */
export function assetRoutes(): Router {
  const router = Router();
  const send = (type: string, body: string) => (_req: unknown, res: import('express').Response) =>
    void res.set('Cache-Control', 'public, max-age=3600').type(type).send(body);
  router.get('/style.css', send('css', STYLESHEET));
  router.get('/app.js', send('js', SCRIPT));
  router.get('/htmx.min.js', send('js', HTMX));
  return router;
}
