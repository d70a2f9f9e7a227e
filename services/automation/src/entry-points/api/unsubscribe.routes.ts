import express, { Router } from 'express';
import { sendPublicPage, type Pool } from '@mailer/shared';
import { unsubscribeContact } from '../../domain/unsubscribe/unsubscribe-contact';
import { verifyUnsubscribeToken } from '../../domain/unsubscribe/unsubscribe-token';
import { confirmPage, donePage, invalidLinkPage } from './unsubscribe-page';

/**
 * Public (no identity: the gateway forwards `/unsubscribe/*` as is). GET confirms, POST
 * unsubscribes; POST is also the RFC 8058 one-click target (`List-Unsubscribe=One-Click`).
 */
export function unsubscribeRoutes(deps: { pool: Pool; secret: string; onUnsubscribed: () => void }): Router {
  const router = Router();
  router.get('/unsubscribe/:token', (req, res) => {
    const target = verifyUnsubscribeToken(req.params.token, deps.secret);
    sendPublicPage(res, target ? 200 : 404, target ? confirmPage() : invalidLinkPage());
  });
  router.post(
    '/unsubscribe/:token',
    express.urlencoded({ extended: false, limit: '2kb' }),
    async (req, res) => {
      const target = verifyUnsubscribeToken(req.params.token, deps.secret);
      if (!target) {
        sendPublicPage(res, 404, invalidLinkPage());
        return;
      }
      await unsubscribeContact(deps.pool, target);
      deps.onUnsubscribed();
      sendPublicPage(res, 200, donePage());
    },
  );
  return router;
}
