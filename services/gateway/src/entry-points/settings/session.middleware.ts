import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Pool } from '@mailer/shared';
import type { SessionRecord } from '../../data-access/sessions.repository';
import { sessionFor } from '../../domain/settings-sessions';
import { readCookie, SESSION_COOKIE } from './cookies';
import { messagePage } from './layout';

export interface SignedIn {
  token: string;
  session: SessionRecord;
}

export const signedInOf = (res: Response): SignedIn | undefined => res.locals.signedIn as SignedIn | undefined;

/** Loads the session named by the cookie, if it exists and has not expired. */
export function loadSession(pool: Pool): RequestHandler {
  return async (req, res, next) => {
    const token = readCookie(req, SESSION_COOKIE);
    const session = token ? await sessionFor(pool, token) : undefined;
    if (token && session) res.locals.signedIn = { token, session } satisfies SignedIn;
    next();
  };
}

/** Pages behind sign-in: anyone else is sent to the sign-in form. */
export const requireSignIn: RequestHandler = (_req, res, next) => {
  if (!signedInOf(res)) {
    res.redirect(303, '/settings/sign-in');
    return;
  }
  next();
};

export function tokensMatch(expected: string | undefined, given: unknown): boolean {
  if (!expected || typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A form posted from another site carries an Origin that is not ours. */
function foreignOrigin(req: Request): boolean {
  const origin = req.get('origin');
  if (!origin || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== req.get('host');
  } catch {
    return true;
  }
}

export function refuseForgedForm(req: Request, res: Response, expectedToken: string | undefined): boolean {
  const body = req.body as Record<string, unknown> | undefined;
  if (!foreignOrigin(req) && tokensMatch(expectedToken, body?._csrf)) return false;
  res
    .status(403)
    .type('html')
    .send(messagePage('Form refused', 'This form expired or was not sent from this site. Go back, reload the page and try again.'));
  return true;
}

/** Every state-changing form of a signed-in user must echo the session's CSRF token. */
export const requireCsrf: RequestHandler = (req, res, next) => {
  if (refuseForgedForm(req, res, signedInOf(res)?.session.csrfToken)) return;
  next();
};
