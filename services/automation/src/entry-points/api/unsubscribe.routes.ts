import express, { Router, type Response } from 'express';
import type { Pool } from '@mailer/shared';
import { unsubscribeContact } from '../../domain/unsubscribe/unsubscribe-contact';
import { verifyUnsubscribeToken } from '../../domain/unsubscribe/unsubscribe-token';
import { confirmPage, donePage, invalidLinkPage } from './unsubscribe-page';

function html(res: Response, status: number, body: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
      'Referrer-Policy': 'no-referrer',
    })
    .send(body);
}

/**
 * Public (no identity: the gateway forwards `/unsubscribe/*` as is). GET confirms, POST
 * unsubscribes; POST is also the RFC 8058 one-click target (`List-Unsubscribe=One-Click`).
 */
export function unsubscribeRoutes(deps: { pool: Pool; secret: string; onUnsubscribed: () => void }): Router {
  const router = Router();
  router.get('/unsubscribe/:token', (req, res) => {
    const target = verifyUnsubscribeToken(req.params.token, deps.secret);
    html(res, target ? 200 : 404, target ? confirmPage() : invalidLinkPage());
  });
  router.post('/unsubscribe/:token', express.urlencoded({ extended: false, limit: '2kb' }), async (req, res) => {
    const target = verifyUnsubscribeToken(req.params.token, deps.secret);
    if (!target) {
      html(res, 404, invalidLinkPage());
      return;
    }
    await unsubscribeContact(deps.pool, target);
    deps.onUnsubscribed();
    html(res, 200, donePage());
  });
  return router;
}
