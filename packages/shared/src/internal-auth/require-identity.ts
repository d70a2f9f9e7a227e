import type { RequestHandler, Response } from 'express';
import { AppError, CommonErrorCodes } from '../errors/app-error';
import { IDENTITY_HEADER, verifyIdentity, type Identity } from './identity-signature';

/**
 * Internal services trust only the gateway: a request without a valid identity signature is 401,
 * so a service reached directly cannot be told a false account.
 */
export function requireIdentity(secret: string): RequestHandler {
  return (req, res, next) => {
    const identity = verifyIdentity(req.get(IDENTITY_HEADER), secret);
    if (!identity) {
      next(new AppError(CommonErrorCodes.UNAUTHORIZED, 'unauthorized'));
      return;
    }
    res.locals.identity = identity;
    next();
  };
}

/** The verified identity of the request being served (set by `requireIdentity`). */
export function identityOf(res: Response): Identity {
  const identity = res.locals.identity as Identity | undefined;
  if (!identity) throw new AppError(CommonErrorCodes.UNAUTHORIZED, 'unauthorized');
  return identity;
}
