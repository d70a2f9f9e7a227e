import { Router, type Request, type Response } from 'express';
import { AppError, CommonErrorCodes } from '@mailer/shared';
import { clearCookie, NEW_KEY_COOKIE, readCookie, setCookie } from '../../http/cookies';
import { callerOf, requireCsrf, signedInOf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { messagePage } from '../layout';
import { apiKeysPage, revokeConfirmPage } from './api-keys.page';
import { accountPage, passwordPage } from './settings.page';

const KEYS_PATH = '/app/settings/api-keys';
const utcDate = () => new Date().toISOString().slice(0, 10);
const field = (req: Request, name: string) => {
  const value = (req.body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
};

const keyNotFoundPage = (res: Response) =>
  res.status(404).type('html').send(messagePage({ title: 'Key not found', message: 'There is no such key in this account.', viewer: viewerOf(res) }));

/**
 * /app/settings: the account, its API keys (list, create with the secret shown once, revoke with a
 * confirmation step) and the password. Keys and users live in the gateway: every change goes
 * through its internal API, scoped by the signed identity to the signed-in account.
 */
export function settingsRoutes(deps: WebDeps): Router {
  const router = Router();

  router.get('/', (_req, res) => res.redirect(303, '/app/settings/account'));

  router.get('/account', async (req, res) => {
    res.type('html').send(accountPage(await deps.gateway.account(callerOf(req, res)), viewerOf(res)));
  });

  router.get('/api-keys', async (req, res) => {
    const caller = callerOf(req, res);
    const sealed = readCookie(req, NEW_KEY_COOKIE);
    // Shown on this one response only: the cookie is cleared with it.
    const created = sealed ? deps.flash.open(sealed, signedInOf(res)!.token) : undefined;
    if (sealed) clearCookie(req, res, NEW_KEY_COOKIE, KEYS_PATH);
    const [keys, account] = await Promise.all([deps.gateway.apiKeys(caller), deps.gateway.account(caller)]);
    res.type('html').send(apiKeysPage({ keys, viewer: viewerOf(res), today: utcDate(), created, apiAccess: account.api_access }));
  });

  router.post('/api-keys', requireCsrf, async (req, res) => {
    const caller = callerOf(req, res);
    const name = field(req, 'name');
    const expires = field(req, 'expires') || null;
    try {
      const { key, plaintext } = await deps.gateway.createApiKey(caller, { name, expires_on: expires });
      setCookie(req, res, NEW_KEY_COOKIE, deps.flash.seal({ plaintext, name: key.name }, signedInOf(res)!.token), {
        path: KEYS_PATH,
        maxAge: 120_000,
        sameSite: 'strict',
      });
      res.redirect(303, KEYS_PATH);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== CommonErrorCodes.VALIDATION) throw error;
      const [keys, account] = await Promise.all([deps.gateway.apiKeys(caller), deps.gateway.account(caller)]);
      res.status(422).type('html').send(
        apiKeysPage({ keys, viewer: viewerOf(res), today: utcDate(), apiAccess: account.api_access, error: error.message, form: { name, expires: expires ?? '' } }),
      );
    }
  });

  router.get('/api-keys/:id/revoke', async (req, res) => {
    const key = (await deps.gateway.apiKeys(callerOf(req, res))).find((candidate) => String(candidate.id) === req.params.id);
    if (!key) return void keyNotFoundPage(res);
    res.type('html').send(revokeConfirmPage(key, viewerOf(res)));
  });

  router.post('/api-keys/:id/revoke', requireCsrf, async (req, res) => {
    try {
      if (!/^[1-9]\d{0,15}$/.test(req.params.id as string)) throw new AppError(CommonErrorCodes.NOT_FOUND, 'API key not found');
      await deps.gateway.revokeApiKey(callerOf(req, res), req.params.id as string);
      res.redirect(303, KEYS_PATH);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== CommonErrorCodes.NOT_FOUND) throw error;
      keyNotFoundPage(res);
    }
  });

  router.get('/password', (req, res) => {
    res.type('html').send(passwordPage({ viewer: viewerOf(res), changed: req.query.changed === '1' }));
  });

  router.post('/password', requireCsrf, async (req, res) => {
    const signedIn = signedInOf(res)!;
    try {
      const stamp = await deps.gateway.changePassword(callerOf(req, res), signedIn.session.userId, {
        current_password: field(req, 'current_password').slice(0, 1024),
        new_password: field(req, 'new_password').slice(0, 1024),
      });
      await deps.sessions.passwordChanged(signedIn.token, signedIn.session, stamp);
      res.redirect(303, '/app/settings/password?changed=1');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== CommonErrorCodes.VALIDATION) throw error;
      res.status(422).type('html').send(passwordPage({ viewer: viewerOf(res), errors: error.messages }));
    }
  });

  return router;
}
