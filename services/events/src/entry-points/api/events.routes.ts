import { Router } from 'express';
import { bodyObject, identityOf, methodNotAllowed, validationFailed, zodMessages } from '@mailer/shared';
import { eventInputSchema } from '../../domain/event-input';
import { ingestEvent, type IngestDeps } from '../../domain/ingest-event';
import type { IngestMetrics } from './ingest-metrics';

/** `POST /v1/events`: validate, publish with confirm, then 202. */
export function eventsRoutes(deps: IngestDeps, metrics: Pick<IngestMetrics, 'accepted'>): Router {
  const router = Router();
  router.post('/events', async (req, res) => {
    const parsed = eventInputSchema.safeParse(bodyObject(req.body));
    if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
    const identity = identityOf(res);
    const { accepted, replayed } = await ingestEvent(deps, identity, parsed.data, req.get('idempotency-key'));
    metrics.accepted(replayed);
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(202).json({ data: accepted });
  });
  router.all('/events', methodNotAllowed(['POST']));
  return router;
}
