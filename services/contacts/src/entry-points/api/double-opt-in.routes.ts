import { Router } from 'express';
import { bodyObject, identityOf, jsonBody, validationFailed, type Pool } from '@mailer/shared';
import { z } from 'zod';
import { doubleOptInEnabled, saveDoubleOptIn } from '../../data-access/double-opt-in.repository';

const settingBody = z.strictObject({ enabled: z.boolean() });

/** The account app's Settings → Double opt-in switch (signed identity, under /internal/v1). */
export function doubleOptInRoutes(deps: { pool: Pool }): Router {
  const router = Router();
  router
    .route('/double-opt-in')
    .get(async (_req, res) => {
      res.json({ data: { enabled: await doubleOptInEnabled(deps.pool, identityOf(res).accountId) } });
    })
    .put(jsonBody('1kb'), async (req, res) => {
      const parsed = settingBody.safeParse(bodyObject(req.body));
      if (!parsed.success) throw validationFailed(['enabled: must be true or false']);
      await saveDoubleOptIn(deps.pool, identityOf(res).accountId, parsed.data.enabled);
      res.json({ data: parsed.data });
    });
  return router;
}
