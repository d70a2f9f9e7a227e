import { Router } from 'express';
import {
  bodyObject,
  identityOf,
  methodNotAllowed,
  validationFailed,
  zodMessages,
  type HotRoutes,
  type Identity,
  type JsonAnswer,
} from '@mailer/shared';
import { eventInputSchema } from '../../domain/event-input';
import { ingestEvent, type IngestDeps } from '../../domain/ingest-event';
import type { IngestMetrics } from './ingest-metrics';

/** The body limit of one event (docs/api.md: at most 64 KiB). */
export const EVENT_BODY_LIMIT_BYTES = 64 * 1024;

/** `POST /v1/events`: validate, publish with confirm, then 202 (replayed: the first answer, marked). */
async function acceptEvent(
  deps: IngestDeps,
  metrics: Pick<IngestMetrics, 'accepted'>,
  identity: Identity,
  body: unknown,
  idempotencyKey: string | undefined,
): Promise<JsonAnswer> {
  const parsed = eventInputSchema.safeParse(bodyObject(body));
  if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
  const { accepted, replayed } = await ingestEvent(deps, identity, parsed.data, idempotencyKey);
  metrics.accepted(replayed);
  return { status: 202, body: { data: accepted }, headers: replayed ? { 'Idempotent-Replayed': 'true' } : {} };
}

/** Ingest on the hot path (see HotRoutes); the router below serves every other shape of request. */
export function addHotEventRoutes(routes: HotRoutes, deps: IngestDeps, metrics: Pick<IngestMetrics, 'accepted' | 'refused'>): void {
  routes.add(
    'POST',
    '/v1/events',
    ({ req, identity, body }) => {
      const key = req.headers['idempotency-key'];
      return acceptEvent(deps, metrics, identity, body, typeof key === 'string' ? key : undefined);
    },
    { bodyLimitBytes: EVENT_BODY_LIMIT_BYTES, onError: metrics.refused },
  );
}

/** Under `/v1`, behind `requireIdentity` and `jsonBody`. */
export function eventsRoutes(deps: IngestDeps, metrics: Pick<IngestMetrics, 'accepted'>): Router {
  const router = Router();
  router.post('/events', async (req, res) => {
    const answer = await acceptEvent(deps, metrics, identityOf(res), req.body, req.get('idempotency-key'));
    res.set(answer.headers).status(answer.status).json(answer.body);
  });
  router.all('/events', methodNotAllowed(['POST']));
  return router;
}
