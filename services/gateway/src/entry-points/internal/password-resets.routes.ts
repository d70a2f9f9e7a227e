import { setTimeout as sleep } from 'node:timers/promises';
import { Router } from 'express';
import { AppError, bodyObject, CommonErrorCodes, type Pool } from '@mailer/shared';
import type { SignInThrottle } from '../../data-access/sign-in-throttle';
import { normaliseEmail } from '../../domain/sign-in-identity';
import { checkResetToken, redeemPasswordReset, requestPasswordReset, RESET_TOKEN_LIFETIME_SECONDS } from '../../domain/password-reset';
import { credentialsStamp } from '../../domain/user-credentials';

export interface PasswordResetDeps {
  pool: Pool;
  /** The sign-in throttle's script under its own keys: requests per client address and per email address. */
  resetThrottle: SignInThrottle;
}

/**
 * Every accepted request is answered no sooner than this after it arrived, known address or not:
 * the known one's token insert (a committed write) would otherwise be the only difference in time.
 * The same idea as AUTH_FAILURE_MIN_MS for refused API keys. It must exceed that insert's time on
 * a busy machine too, or the floor hides nothing then: 60 ms did not (a loaded test run measured
 * known 121 vs unknown 99 ms), so it is 250.
 */
export const RESET_ANSWER_FLOOR_MS = 250;

const text = (body: Record<string, unknown>, name: string, max: number) => {
  const value = body[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

const noNul = (...values: string[]) => {
  if (values.some((value) => value.includes('\0'))) throw new AppError(CommonErrorCodes.BAD_REQUEST, 'fields must not contain NUL characters');
};

/**
 * Password reset by emailed link, for the account app (which sends the email through automation).
 * A request answers the same shape whether or not the address has a user: `token` is null when
 * it has none, and the app shows the same page either way.
 */
export function passwordResetRoutes(deps: PasswordResetDeps): Router {
  const router = Router();

  router.post('/password-resets', async (req, res) => {
    const floor = performance.now() + RESET_ANSWER_FLOOR_MS;
    const body = bodyObject(req.body);
    const email = text(body, 'email', 254);
    noNul(email);
    const identity = normaliseEmail(email);
    const wait = await deps.resetThrottle.reserve(text(body, 'ip', 64) || 'unknown', identity);
    if (wait > 0) {
      throw new AppError(CommonErrorCodes.RATE_LIMITED, 'too many password reset requests').withHeaders({ 'Retry-After': String(wait) });
    }
    const reset = await requestPasswordReset(deps.pool, identity);
    const early = floor - performance.now();
    if (early > 0) await sleep(early);
    res.json({ data: { token: reset?.token ?? null, email: reset?.user.email ?? null, expires_in_seconds: RESET_TOKEN_LIFETIME_SECONDS } });
  });

  // POST, not GET: the token is a secret and stays out of access logs' request lines.
  router.post('/password-resets/check', async (req, res) => {
    const token = text(bodyObject(req.body), 'token', 128);
    await checkResetToken(deps.pool, token);
    res.json({ data: { usable: true } });
  });

  router.post('/password-resets/redeem', async (req, res) => {
    const body = bodyObject(req.body);
    const token = text(body, 'token', 128);
    const newPassword = text(body, 'new_password', 1024);
    noNul(token, newPassword);
    const user = await redeemPasswordReset(deps.pool, token, newPassword);
    res.json({ data: { id: user.id, account_id: user.accountId, email: user.email, credentials_stamp: credentialsStamp(user.passwordHash) } });
  });

  return router;
}
