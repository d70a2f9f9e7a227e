import express, { Router } from 'express';
import { SCRIPT, STYLESHEET } from './assets';
import { apiKeyRoutes } from './api-keys.routes';
import type { SettingsDeps } from './settings-deps';
import { loadSession, requireSignIn, signedInOf } from './session.middleware';
import { signInRoutes } from './sign-in.routes';

/** The settings screen, mounted at /settings: server-rendered HTML, usable without JavaScript. */
export function settingsRoutes(deps: SettingsDeps): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on our own form posts.
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.get('/assets/style.css', (_req, res) => void res.set('Cache-Control', 'public, max-age=3600').type('css').send(STYLESHEET));
  router.get('/assets/app.js', (_req, res) => void res.set('Cache-Control', 'public, max-age=3600').type('js').send(SCRIPT));
  router.use(express.urlencoded({ extended: false, limit: '10kb' }));
  router.use(loadSession(deps.pool));
  router.get('/', (_req, res) => res.redirect(303, signedInOf(res) ? '/settings/account' : '/settings/sign-in'));
  router.use(signInRoutes(deps));
  router.use(requireSignIn, apiKeyRoutes(deps));
  return router;
}
