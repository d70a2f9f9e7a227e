import { Router, type Request, type Response } from 'express';
import { trackHit, type TrackHitDeps } from '../../domain/track-hit';

/** The open pixel: a transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<title>Link not valid</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}</style></head>' +
  '<body><h1>Link not valid</h1><p>This link is not valid. Please use the link from your email as it was sent.</p></body></html>';

/** Every answer of a tracking URL is the visitor's alone: never cached, never told where they came from. */
function noStore(res: Response): Response {
  return res.set({ 'Cache-Control': 'no-store, max-age=0', 'Referrer-Policy': 'no-referrer' });
}

/**
 * `GET /t/c/:token` (a tracked link: 302 to the URL inside the token) and `GET /t/o/:token` (the
 * open pixel), public: reached through the gateway's IP-limited `/t/*` with no identity. Any query
 * string is ignored, so `?url=` can send nobody anywhere. A bad, altered or wrong-kind token is a
 * 404 page.
 */
export function trackingRoutes(deps: TrackHitDeps): Router {
  const router = Router();
  const answer = (kind: 'click' | 'open') => (req: Request, res: Response) => {
    // A HEAD fetches nothing a person sees: a scanner's or a prefetcher's probe.
    const answered = trackHit(deps, kind, String(req.params.token), { userAgent: req.get('user-agent'), probe: req.method === 'HEAD' });
    noStore(res);
    if (answered.kind === 'click') res.status(302).set('Location', answered.url).end();
    else if (answered.kind === 'open') res.status(200).type('image/gif').send(PIXEL);
    else res.status(404).type('html').send(NOT_FOUND_PAGE);
  };
  router.get('/t/c/:token', answer('click'));
  router.get('/t/o/:token', answer('open'));
  return router;
}
