import { Router, type Response } from 'express';
import { AppError, bodyObject, CommonErrorCodes, identityOf, type Pool } from '@mailer/shared';
import type { UserWithHash } from '../../data-access/users.repository';
import type { SignInThrottle } from '../../data-access/sign-in-throttle';
import { normaliseEmail } from '../../domain/sign-in-identity';
import { changeOwnPassword, credentialsStamp, userOfAccount, verifyCredentials } from '../../domain/user-credentials';

export interface InternalUsersDeps {
  pool: Pool;
  throttle: SignInThrottle;
  /** Counts a refused sign-in (metrics). */
  onSignInFailed?: () => void;
}

const userJson = (user: UserWithHash) => ({
  id: user.id,
  account_id: user.accountId,
  email: user.email,
  credentials_stamp: credentialsStamp(user.passwordHash),
});

const text = (body: Record<string, unknown>, name: string, max: number) => {
  const value = body[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

const ID = /^[1-9]\d{0,15}$/;

/**
 * Users for the account app (it owns no users, only sessions): sign-in behind the same throttle
 * the attack tests hold the gateway to, the signed-in user, and a change of one's own password.
 */
export function internalUsersRoutes(deps: InternalUsersDeps): Router {
  const router = Router();

  router.post('/users/verify', async (req, res) => {
    const body = bodyObject(req.body);
    const email = text(body, 'email', 254);
    const password = text(body, 'password', 1024);
    // Postgres stores no NUL in text: refused before the lookup could fail as a 500.
    if (email.includes('\0') || password.includes('\0')) {
      throw new AppError(CommonErrorCodes.BAD_REQUEST, 'email and password must not contain NUL characters');
    }
    const identity = normaliseEmail(email);
    const ip = text(body, 'ip', 64) || 'unknown';
    // Charged before the password is checked (one atomic step), so parallel guesses cannot overshoot.
    const wait = await deps.throttle.reserve(ip, identity);
    if (wait > 0) {
      throw new AppError(CommonErrorCodes.RATE_LIMITED, 'too many failed sign-ins').withHeaders({ 'Retry-After': String(wait) });
    }
    let user: UserWithHash;
    try {
      user = await verifyCredentials(deps.pool, identity, password);
    } catch (error) {
      deps.onSignInFailed?.();
      throw error;
    }
    await deps.throttle.succeeded(ip, identity);
    res.json({ data: userJson(user) });
  });

  const userOf = async (id: string, res: Response) => {
    const user = ID.test(id) ? await userOfAccount(deps.pool, identityOf(res).accountId, Number(id)) : undefined;
    if (!user) throw new AppError(CommonErrorCodes.NOT_FOUND, 'user not found');
    return user;
  };

  router.get('/users/:id', async (req, res) => {
    res.json({ data: userJson(await userOf(req.params.id, res)) });
  });

  router.post('/users/:id/password', async (req, res) => {
    const body = bodyObject(req.body);
    const user = await changeOwnPassword(deps.pool, await userOf(req.params.id, res), {
      currentPassword: text(body, 'current_password', 1024),
      newPassword: text(body, 'new_password', 1024),
    });
    res.json({ data: userJson(user) });
  });

  return router;
}
