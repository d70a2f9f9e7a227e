import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { AppError } from '@mailer/shared';
import { SESSION_TTL_SECONDS, signIn, signOut } from '../../domain/settings-sessions';
import { clearCookie, readCookie, SESSION_COOKIE, setCookie, SIGN_IN_COOKIE } from './cookies';
import { signInPage } from './pages/sign-in.page';
import type { SettingsDeps } from './settings-deps';
import { refuseForgedForm, requireCsrf, requireSignIn, signedInOf } from './session.middleware';

const SIGN_IN_PATH = '/settings/sign-in';

/**
 * Sign-in and sign-out. Before there is a session, the sign-in form is protected by a
 * double-submit token (cookie + hidden field), so no other site can sign a browser in.
 */
export function signInRoutes(deps: SettingsDeps): Router {
  const router = Router();

  router.get('/sign-in', (req, res) => {
    if (signedInOf(res)) {
      res.redirect(303, '/settings/account');
      return;
    }
    const csrfToken = randomBytes(24).toString('base64url');
    setCookie(req, res, SIGN_IN_COOKIE, csrfToken, { path: SIGN_IN_PATH, maxAge: 3600_000 });
    res.type('html').send(signInPage({ csrfToken }));
  });

  router.post('/sign-in', async (req, res) => {
    const expected = readCookie(req, SIGN_IN_COOKIE);
    if (refuseForgedForm(req, res, expected)) return;
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const ip = req.ip ?? 'unknown';
    const wait = await deps.throttle.retryAfter(ip, email);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      res.status(429).type('html').send(signInPage({ csrfToken: expected!, email, error: `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minute(s).` }));
      return;
    }
    try {
      const { token } = await signIn(deps.pool, email, password);
      clearCookie(req, res, SIGN_IN_COOKIE, SIGN_IN_PATH);
      setCookie(req, res, SESSION_COOKIE, token, { path: '/settings', maxAge: SESSION_TTL_SECONDS * 1000 });
      res.redirect(303, '/settings/account');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await deps.throttle.failed(ip, email);
      deps.onSignInFailed?.();
      deps.logger.info({ ip }, 'settings sign-in failed');
      res.status(401).type('html').send(signInPage({ csrfToken: expected!, email, error: 'Email or password is incorrect.' }));
    }
  });

  router.post('/sign-out', requireSignIn, requireCsrf, async (req, res) => {
    await signOut(deps.pool, signedInOf(res)!.token);
    clearCookie(req, res, SESSION_COOKIE, '/settings');
    res.redirect(303, SIGN_IN_PATH);
  });

  return router;
}
