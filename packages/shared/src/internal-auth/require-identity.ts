import type { Request, RequestHandler, Response } from 'express';
import { AppError, CommonErrorCodes } from '../errors/app-error';
import { IDENTITY_HEADER, NO_BODY, verifyIdentity, type Identity } from './identity-signature';

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Internal services trust only the gateway: a request without a valid identity signature for this
 * method and path is 401, so a service reached directly cannot be told a false account, and a
 * captured header cannot be replayed on another request. A body where the signature says there was
 * none is refused here; a body's digest is compared by `jsonBody` as it reads the body.
 */
export function requireIdentity(secret: string): RequestHandler {
  return (req, res, next) => {
    const identity = verifyIdentity(req.get(IDENTITY_HEADER), { method: req.method, path: req.originalUrl }, secret);
    if (!identity || (identity.bodyDigest === NO_BODY && hasBody(req))) {
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
