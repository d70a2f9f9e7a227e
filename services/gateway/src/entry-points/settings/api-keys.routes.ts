import { Router, type Response } from 'express';
import { AppError, CommonErrorCodes } from '@mailer/shared';
import { findAccount } from '../../data-access/accounts.repository';
import { GatewayErrorCodes } from '../../domain/gateway.errors';
import { utcDate } from '../../domain/key-status';
import { createApiKey, listKeys, revokeApiKey } from '../../domain/manage-api-keys';
import { clearCookie, NEW_KEY_COOKIE, readCookie, setCookie } from './cookies';
import { messagePage, type Viewer } from './layout';
import { accountPage } from './pages/account.page';
import { apiKeysPage, revokeConfirmPage } from './pages/api-keys.page';
import type { SettingsDeps } from './settings-deps';
import { requireCsrf, signedInOf } from './session.middleware';

const KEYS_PATH = '/settings/api-keys';

function viewerOf(res: Response): { viewer: Viewer; accountId: number; token: string } {
  const { session, token } = signedInOf(res)!;
  return { viewer: { email: session.email, csrfToken: session.csrfToken }, accountId: session.accountId, token };
}

const keyNotFoundPage = (res: Response, viewer: Viewer) =>
  res.status(404).type('html').send(messagePage('Key not found', 'There is no such key in this account.', viewer));

/** Account page and API keys: list, create (secret shown once), revoke with a confirmation step. */
export function apiKeyRoutes(deps: SettingsDeps): Router {
  const router = Router();

  router.get('/account', async (_req, res) => {
    const { viewer, accountId } = viewerOf(res);
    const account = await findAccount(deps.pool, accountId);
    if (!account) throw new AppError(CommonErrorCodes.NOT_FOUND, 'account not found');
    res.type('html').send(accountPage(account, viewer));
  });

  router.get('/api-keys', async (req, res) => {
    const { viewer, accountId, token } = viewerOf(res);
    const sealed = readCookie(req, NEW_KEY_COOKIE);
    // Shown on this one response only: the cookie is cleared with it.
    const created = sealed ? deps.flash.open(sealed, token) : undefined;
    if (sealed) clearCookie(req, res, NEW_KEY_COOKIE, KEYS_PATH);
    const [keys, account] = await Promise.all([listKeys(deps.pool, accountId), findAccount(deps.pool, accountId)]);
    res.type('html').send(apiKeysPage({ keys, viewer, today: utcDate(), created, apiAccess: account?.apiAccess ?? false }));
  });

  router.post('/api-keys', requireCsrf, async (req, res) => {
    const { viewer, accountId, token } = viewerOf(res);
    const body = req.body as Record<string, unknown>;
    const name = typeof body.name === 'string' ? body.name : '';
    const expires = typeof body.expires === 'string' && body.expires !== '' ? body.expires : null;
    try {
      const { key, plaintext } = await createApiKey(deps.pool, { accountId, name, expiresOn: expires, allowPast: false });
      setCookie(req, res, NEW_KEY_COOKIE, deps.flash.seal({ plaintext, name: key.name }, token), {
        path: KEYS_PATH,
        maxAge: 120_000,
        sameSite: 'strict',
      });
      res.redirect(303, KEYS_PATH);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== CommonErrorCodes.VALIDATION) throw error;
      const [keys, account] = await Promise.all([listKeys(deps.pool, accountId), findAccount(deps.pool, accountId)]);
      res.status(422).type('html').send(
        apiKeysPage({
          keys,
          viewer,
          today: utcDate(),
          apiAccess: account?.apiAccess ?? false,
          error: error.message,
          form: { name, expires: expires ?? '' },
        }),
      );
    }
  });

  router.get('/api-keys/:id/revoke', async (req, res) => {
    const { viewer, accountId } = viewerOf(res);
    const key = (await listKeys(deps.pool, accountId)).find((candidate) => String(candidate.id) === req.params.id);
    if (!key) return void keyNotFoundPage(res, viewer);
    res.type('html').send(revokeConfirmPage(key, viewer));
  });

  router.post('/api-keys/:id/revoke', requireCsrf, async (req, res) => {
    const { viewer, accountId } = viewerOf(res);
    const id = /^[1-9]\d{0,15}$/.test(req.params.id as string) ? Number(req.params.id) : undefined;
    try {
      if (id === undefined) throw new AppError(GatewayErrorCodes.KEY_NOT_FOUND, 'API key not found');
      // Scoped to the signed-in account: another account's key id is simply not found.
      await revokeApiKey({ pool: deps.pool, announceRevocation: deps.announceRevocation }, id, accountId);
      res.redirect(303, KEYS_PATH);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== GatewayErrorCodes.KEY_NOT_FOUND) throw error;
      keyNotFoundPage(res, viewer);
    }
  });

  return router;
}
