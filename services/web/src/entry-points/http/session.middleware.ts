import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Caller } from '@mailer/shared';
import type { SessionRecord, Sessions } from '../../domain/sessions';
import type { Viewer } from '../pages/layout';
import { messagePage } from '../pages/layout';
import { readCookie, SESSION_COOKIE } from './cookies';

export interface SignedIn {
  token: string;
  session: SessionRecord;
}

export const signedInOf = (res: Response): SignedIn | undefined => res.locals.signedIn as SignedIn | undefined;

export const requestIdOf = (req: Request): string => String(req.headers['x-request-id']);

/** The signed-in viewer of a page behind `requireSignIn`. */
export function viewerOf(res: Response): Viewer {
  const { session } = signedInOf(res)!;
  return { email: session.email, csrfToken: session.csrfToken };
}

/** Calls to other services made for the signed-in account. */
export function callerOf(req: Request, res: Response): Caller {
  return { accountId: signedInOf(res)!.session.accountId, requestId: requestIdOf(req) };
}

/** Loads the session named by the cookie, if it exists, has not expired and its password still holds. */
export function loadSession(sessions: Sessions): RequestHandler {
  return async (req, res, next) => {
    const token = readCookie(req, SESSION_COOKIE);
    const session = token ? await sessions.resume(token, requestIdOf(req)) : undefined;
    if (token && session) res.locals.signedIn = { token, session } satisfies SignedIn;
    next();
  };
}

/** Pages behind sign-in: anyone else is sent to the sign-in form, and back here afterwards. */
export const requireSignIn: RequestHandler = (req, res, next) => {
  if (signedInOf(res)) return next();
  const back = req.method === 'GET' && req.originalUrl.startsWith('/app/') ? `?next=${encodeURIComponent(req.originalUrl)}` : '';
  res.redirect(303, `/app/sign-in${back}`);
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
    return new URL(origin).host !== req.host;
  } catch {
    return true;
  }
}

/** The CSRF token of a form: the hidden field, or htmx's header for partial requests. */
const tokenSent = (req: Request): unknown => (req.body as Record<string, unknown> | undefined)?._csrf ?? req.get('x-csrf-token');

export function refuseForgedForm(req: Request, res: Response, expectedToken: string | undefined): boolean {
  if (!foreignOrigin(req) && tokensMatch(expectedToken, tokenSent(req))) return false;
  res.status(403).type('html').send(
    messagePage({
      title: 'Form refused',
      message: 'This form expired or was not sent from this site. Go back, reload the page and try again.',
      viewer: signedInOf(res) ? viewerOf(res) : undefined,
    }),
  );
  return true;
}

/** Every state-changing request of a signed-in user must echo the session's CSRF token. */
export const requireCsrf: RequestHandler = (req, res, next) => {
  if (refuseForgedForm(req, res, signedInOf(res)?.session.csrfToken)) return;
  next();
};
