import type { CookieOptions, Request, Response } from 'express';

export const SESSION_COOKIE = 'mk_session';
export const SIGN_IN_COOKIE = 'mk_signin';
export const NEW_KEY_COOKIE = 'mk_new_key';

export function readCookie(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** HttpOnly and SameSite always; Secure whenever the browser reached us over TLS (directly or via a trusted proxy). */
export function setCookie(req: Request, res: Response, name: string, value: string, options: CookieOptions): void {
  res.cookie(name, value, { httpOnly: true, sameSite: 'lax', secure: req.secure, ...options });
}

export function clearCookie(req: Request, res: Response, name: string, path: string): void {
  res.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure: req.secure, path });
}
