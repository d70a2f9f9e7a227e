import { Router } from 'express';
import { AppError, bodyObject, CommonErrorCodes, identityOf, type Pool } from '@mailer/shared';
import { findAccount } from '../../data-access/accounts.repository';
import { createApiKey, listKeys, revokeApiKey, type ApiKeyView } from '../../domain/manage-api-keys';
import { keyNotFound } from '../../domain/gateway.errors';

export interface InternalKeysDeps {
  pool: Pool;
  /** Tells every gateway instance that a key was revoked. */
  announceRevocation: (keyId: string) => Promise<void>;
}

const keyJson = (key: ApiKeyView) => ({
  id: key.id,
  name: key.name,
  key_id: key.keyId,
  created_at: key.createdAt.toISOString(),
  expires_on: key.expiresOn,
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  status: key.status,
});

/** The signed-in account and its API keys, for the account app; every route scoped to the signed identity. */
export function internalKeysRoutes(deps: InternalKeysDeps): Router {
  const router = Router();

  router.get('/account', async (_req, res) => {
    const account = await findAccount(deps.pool, identityOf(res).accountId);
    if (!account) throw new AppError(CommonErrorCodes.NOT_FOUND, 'account not found');
    res.json({ data: { id: account.id, name: account.name, plan: account.plan, api_access: account.apiAccess } });
  });

  router.get('/api-keys', async (_req, res) => {
    res.json({ data: (await listKeys(deps.pool, identityOf(res).accountId)).map(keyJson) });
  });

  router.post('/api-keys', async (req, res) => {
    const body = bodyObject(req.body);
    const expires = body.expires_on;
    const { key, plaintext } = await createApiKey(deps.pool, {
      accountId: identityOf(res).accountId,
      name: typeof body.name === 'string' ? body.name : '',
      expiresOn: typeof expires === 'string' && expires !== '' ? expires : null,
      allowPast: false,
    });
    res.status(201).json({ data: { key: keyJson(key), plaintext } });
  });

  router.post('/api-keys/:id/revoke', async (req, res) => {
    // Scoped to the signed account: another account's key id is simply not found.
    if (!/^[1-9]\d{0,15}$/.test(req.params.id)) throw keyNotFound();
    const key = await revokeApiKey(deps, Number(req.params.id), identityOf(res).accountId);
    res.json({ data: keyJson(key) });
  });

  return router;
}
