import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { WebDeps } from '../../http/web-deps';
import { readCookie, RESET_COOKIE, setCookie } from '../../http/cookies';
import { refuseForgedForm, requestIdOf } from '../../http/session.middleware';
import { askTheOperatorPage, checkEmailPage, forgotPasswordPage, resetPasswordPage, unusableLinkPage } from './password-reset.page';
import { resetEmail } from './reset-email';

const FORGOT_PATH = '/app/forgot-password';
const RESET_PATH = '/app/reset';
// The gateway's tokens: 32 random bytes, base64url. Anything else is answered without a call.
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A double-submit token (cookie + hidden field) for a form shown before anyone is signed in. */
function formToken(req: Request, res: Response, path: string): string {
  const token = randomBytes(24).toString('base64url');
  setCookie(req, res, RESET_COOKIE, token, { path, maxAge: 3600_000 });
  return token;
}

const field = (req: Request, name: string, max: number) => {
  const value = (req.body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/**
 * "Forgot your password?": the request answers the same page, after the same work, whether or not
 * the address has a user; the email is handed to automation after the answer, so its sending time
 * tells nothing either. The link's GET only shows the form (mail scanners fetch links); only the
 * POST with the form's token spends it.
 */
export function passwordResetRoutes(deps: WebDeps): Router {
  const router = Router();

  router.get('/forgot-password', async (req, res) => {
    if (!(await deps.passwordReset.canSend(requestIdOf(req)))) return void res.status(503).type('html').send(askTheOperatorPage());
    res.type('html').send(forgotPasswordPage({ csrfToken: formToken(req, res, FORGOT_PATH) }));
  });

  router.post('/forgot-password', async (req, res) => {
    const expected = readCookie(req, RESET_COOKIE);
    if (refuseForgedForm(req, res, expected)) return;
    const email = field(req, 'email', 254);
    const requestId = requestIdOf(req);
    // Asked before the throttle and the lookup, the same for every address: no token is made that no email could carry.
    if (!(await deps.passwordReset.canSend(requestId))) return void res.status(503).type('html').send(askTheOperatorPage());
    const answer = await deps.passwordReset.request(requestId, { email, ip: req.ip ?? 'unknown' });
    if (answer.outcome === 'throttled') {
      res.setHeader('Retry-After', String(answer.retryAfterSeconds));
      const minutes = Math.ceil(answer.retryAfterSeconds / 60);
      res.status(429).type('html').send(
        forgotPasswordPage({ csrfToken: expected!, email, error: `Too many reset requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }),
      );
      return;
    }
    res.type('html').send(checkEmailPage());
    const reset = answer.reset;
    if (!reset) return;
    const link = `${deps.publicBaseUrl}${RESET_PATH}/${reset.token}`;
    deps.passwordReset.sendEmail(requestId, { to: reset.email, ...resetEmail(link) }).then(
      () => deps.logger.info({ requestId }, 'password reset email handed to automation'),
      (error: unknown) => deps.logger.error({ err: error, requestId }, 'password reset email could not be sent; the user can ask the operator (users set-password)'),
    );
  });

  router.get('/reset/:token', async (req, res) => {
    const token = req.params.token;
    const state = TOKEN.test(token) ? await deps.passwordReset.check(requestIdOf(req), token) : 'unknown';
    if (state !== 'usable') return void res.status(410).type('html').send(unusableLinkPage(state));
    // The token is in this page's address; the app's Referrer-Policy (same-origin) keeps it from other sites.
    res.type('html').send(resetPasswordPage({ csrfToken: formToken(req, res, `${RESET_PATH}/${token}`), token }));
  });

  router.post('/reset/:token', async (req, res) => {
    const token = req.params.token;
    const expected = readCookie(req, RESET_COOKIE);
    if (refuseForgedForm(req, res, expected)) return;
    if (!TOKEN.test(token)) return void res.status(410).type('html').send(unusableLinkPage('unknown'));
    const newPassword = field(req, 'new_password', 1024);
    if (newPassword !== field(req, 'repeat_password', 1024)) {
      return void res.status(422).type('html').send(resetPasswordPage({ csrfToken: expected!, token, error: 'The two passwords are not the same.' }));
    }
    const outcome = await deps.passwordReset.redeem(requestIdOf(req), token, newPassword);
    if (outcome.outcome === 'unusable') return void res.status(410).type('html').send(unusableLinkPage(outcome.why));
    if (outcome.outcome === 'refused') {
      return void res.status(422).type('html').send(resetPasswordPage({ csrfToken: expected!, token, error: outcome.messages.join(' ') }));
    }
    deps.logger.info({ requestId: requestIdOf(req) }, 'password reset by emailed link');
    res.redirect(303, '/app/sign-in?reset=done');
  });

  return router;
}
