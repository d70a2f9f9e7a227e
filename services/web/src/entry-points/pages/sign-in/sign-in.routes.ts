import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { WebDeps } from '../../http/web-deps';
import { clearCookie, readCookie, SESSION_COOKIE, setCookie, SIGN_IN_COOKIE } from '../../http/cookies';
import { refuseForgedForm, requestIdOf, requireCsrf, requireSignIn, signedInOf } from '../../http/session.middleware';
import { signInPage } from './sign-in.page';

const SIGN_IN_PATH = '/app/sign-in';

/** Only a path of this app: never an absolute URL another site could send a user to. */
const safeNext = (value: unknown): string | undefined =>
  typeof value === 'string' && /^\/app(\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*)?$/.test(value) && !value.startsWith('//') ? value : undefined;

/**
 * Sign-in and sign-out. The password is checked by the gateway (users and the sign-in throttle live
 * there); this app opens its own session. Before there is a session, the form is protected by a
 * double-submit token (cookie + hidden field), so no other site can sign a browser in.
 */
export function signInRoutes(deps: WebDeps): Router {
  const router = Router();

  router.get('/sign-in', (req, res) => {
    const next = safeNext(req.query.next);
    if (signedInOf(res)) return void res.redirect(303, next ?? '/app');
    const csrfToken = randomBytes(24).toString('base64url');
    setCookie(req, res, SIGN_IN_COOKIE, csrfToken, { path: SIGN_IN_PATH, maxAge: 3600_000 });
    const notice = req.query.reset === 'done' ? 'Your password was changed. Sign in with the new one.' : undefined;
    res.type('html').send(signInPage({ csrfToken, next, notice }));
  });

  router.post('/sign-in', async (req, res) => {
    const expected = readCookie(req, SIGN_IN_COOKIE);
    if (refuseForgedForm(req, res, expected)) return;
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const next = safeNext(body.next);
    const form = { csrfToken: expected!, email, next };
    const verdict = await deps.gateway.verify(requestIdOf(req), { email, password, ip: req.ip ?? 'unknown' });
    if (verdict.outcome === 'throttled') {
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      res.status(429).type('html').send(signInPage({ ...form, error: `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }));
      return;
    }
    if (verdict.outcome === 'refused') {
      deps.logger.info({ ip: req.ip }, 'app sign-in failed');
      res.status(401).type('html').send(signInPage({ ...form, error: 'Email or password is incorrect.' }));
      return;
    }
    const { token } = await deps.sessions.open(verdict.user);
    clearCookie(req, res, SIGN_IN_COOKIE, SIGN_IN_PATH);
    setCookie(req, res, SESSION_COOKIE, token, { path: '/app', maxAge: deps.sessions.lifetimeSeconds * 1000 });
    res.redirect(303, next ?? '/app');
  });

  router.post('/sign-out', requireSignIn, requireCsrf, async (req, res) => {
    await deps.sessions.end(signedInOf(res)!.token);
    clearCookie(req, res, SESSION_COOKIE, '/app');
    res.redirect(303, SIGN_IN_PATH);
  });

  return router;
}
