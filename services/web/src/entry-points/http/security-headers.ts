import type { RequestHandler } from 'express';

/**
 * Every page: scripts and styles from this origin only (htmx is served by us), no framing, forms
 * post only here, nothing cached (pages hold account data). Frames only from here: the email
 * previews (see emailFrameHeaders).
 */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on our own form posts.
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * A rendered email shown in a preview frame: its own inline styles apply (they are the email's
 * look), nothing else loads but images, no script runs (sandbox), and only our pages may frame it.
 */
export const emailFrameHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'; sandbox");
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  next();
};
