import type { CookieOptions, Request, Response } from 'express';

export const SESSION_COOKIE = 'mk_app_session';
export const SIGN_IN_COOKIE = 'mk_app_signin';
export const NEW_KEY_COOKIE = 'mk_app_new_key';
/** The double-submit token of the forgot-password and reset forms (scoped to each form's path). */
export const RESET_COOKIE = 'mk_app_reset';

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

/**
 * HttpOnly and SameSite=Lax always; Secure whenever the browser reached us over TLS (the gateway,
 * a trusted proxy, says so in X-Forwarded-Proto).
 */
export function setCookie(req: Request, res: Response, name: string, value: string, options: CookieOptions): void {
  res.cookie(name, value, { httpOnly: true, sameSite: 'lax', secure: req.secure, ...options });
}

export function clearCookie(req: Request, res: Response, name: string, path: string): void {
  res.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure: req.secure, path });
}
