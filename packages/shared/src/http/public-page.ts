import type { Response } from 'express';

/**
 * Sends a small public HTML page (unsubscribe, confirm, subscribe form): never cached, no script,
 * styles inline only, forms post back to the same origin, no referrer. Framing is refused unless
 * the page is meant to be embedded: no other site may frame a button and trick a click on it.
 */
export function sendPublicPage(res: Response, status: number, body: string, options: { allowFraming?: boolean } = {}): void {
  const policy = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': options.allowFraming ? policy : `${policy}; frame-ancestors 'none'`,
      ...(options.allowFraming ? {} : { 'X-Frame-Options': 'DENY' }),
      'Referrer-Policy': 'no-referrer',
    })
    .send(body);
}
