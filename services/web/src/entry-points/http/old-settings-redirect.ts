import { Router } from 'express';

const MOVED: Record<string, string> = {
  '/sign-in': '/app/sign-in',
  '/account': '/app/settings/account',
  '/api-keys': '/app/settings/api-keys',
};

/** The old settings screen's addresses (bookmarks, the quickstart's printed link) lead into the app. */
export function oldSettingsRedirect(): Router {
  const router = Router();
  router.get('/{*rest}', (req, res) => res.redirect(301, MOVED[req.path.replace(/\/$/, '')] ?? '/app/settings'));
  return router;
}
