import { Router, type Response } from 'express';
import { bodyObject, identityOf, jsonBody, notFound, validationFailed } from '@mailer/shared';
import { z } from 'zod';
import {
  createEndpoint,
  deleteEndpoint,
  endpointDeliveries,
  getEndpoint,
  listEndpoints,
  resend,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointDeps,
} from '../../domain/manage-endpoints';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-events';
import { deliveryJson, endpointJson } from './endpoint.json';

const ID = /^[1-9][0-9]{0,14}$/;

function idOf(raw: string, what: string): number {
  if (!ID.test(raw)) throw notFound(what);
  return Number(raw);
}

const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.coerce.number().int().positive().optional(),
});

const accountOf = (res: Response) => identityOf(res).accountId;

/**
 * The internal API the account app manages webhooks with (Settings → Webhooks): signed identity,
 * under /internal/v1, a prefix the gateway never routes. Every row is the caller's account's.
 */
export function endpointsRoutes(deps: EndpointDeps & { onQueued: () => void }): Router {
  const router = Router();
  router.use(jsonBody('64kb'));

  router.get('/webhook-event-types', (_req, res) => {
    res.json({ data: WEBHOOK_EVENT_TYPES });
  });

  router
    .route('/webhook-endpoints')
    .get(async (_req, res) => {
      res.json({ data: (await listEndpoints(deps, accountOf(res))).map(endpointJson) });
    })
    .post(async (req, res) => {
      const { endpoint, secret } = await createEndpoint(deps, accountOf(res), bodyObject(req.body));
      res.status(201).json({ data: endpointJson(endpoint), secret });
    });

  router
    .route('/webhook-endpoints/:id')
    .get(async (req, res) => {
      res.json({ data: endpointJson(await getEndpoint(deps, accountOf(res), idOf(req.params.id, 'webhook endpoint'))) });
    })
    .patch(async (req, res) => {
      const endpoint = await updateEndpoint(deps, accountOf(res), idOf(req.params.id, 'webhook endpoint'), bodyObject(req.body));
      // Re-enabling may leave deliveries due at once.
      deps.onQueued();
      res.json({ data: endpointJson(endpoint) });
    })
    .delete(async (req, res) => {
      await deleteEndpoint(deps, accountOf(res), idOf(req.params.id, 'webhook endpoint'));
      res.status(204).end();
    });

  router.post('/webhook-endpoints/:id/rotate-secret', async (req, res) => {
    const { endpoint, secret } = await rotateEndpointSecret(deps, accountOf(res), idOf(req.params.id, 'webhook endpoint'));
    res.json({ data: endpointJson(endpoint), secret });
  });

  router.get('/webhook-endpoints/:id/deliveries', async (req, res) => {
    const query = pageQuery.safeParse(req.query);
    if (!query.success) throw validationFailed(query.error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`));
    const entries = await endpointDeliveries(deps, accountOf(res), idOf(req.params.id, 'webhook endpoint'), query.data);
    res.json({ data: entries.map(deliveryJson) });
  });

  router.post('/webhook-endpoints/:id/deliveries/:deliveryId/resend', async (req, res) => {
    await resend(deps, accountOf(res), idOf(req.params.id, 'webhook endpoint'), idOf(req.params.deliveryId, 'delivery'));
    deps.onQueued();
    res.status(202).json({ data: { resent: true } });
  });

  return router;
}
