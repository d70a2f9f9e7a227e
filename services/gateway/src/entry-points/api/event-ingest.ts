import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { bodyObject, sendJson, validationFailed, zodMessages } from '@mailer/shared';
import { eventInputSchema } from '../../domain/events/event-input';
import { ingestEvent, type IngestDeps } from '../../domain/events/ingest-event';
import { accountOf } from './access-guard';
import { readEventBody } from './event-body';
import type { IngestMetrics } from './ingest-metrics';
import { ClientAborted } from './request-body';
import type { ForwardedRequest } from './upstream-proxy';

/**
 * `POST /v1/events`, answered in the gateway's own process once the key check passed: validate,
 * publish with the broker's confirm, then 202 (a replay: the first answer, marked). It used to be
 * one more HTTP hop to an events service; that hop cost more than the ingest (docs/decisions.md).
 */
export class EventIngest {
  constructor(
    private readonly deps: IngestDeps,
    private readonly metrics: Pick<IngestMetrics, 'accepted' | 'refused'>,
  ) {}

  /** The lane's end: POST to the path itself; Express answers any other method (405) or path (404). */
  takes(req: IncomingMessage): boolean {
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    return req.method === 'POST' && (queryAt === -1 ? url : url.slice(0, queryAt)) === '/v1/events';
  }

  async forward(req: IncomingMessage, res: ServerResponse, request: Pick<ForwardedRequest, 'accountId'>): Promise<void> {
    const { accountId } = request;
    if (accountId === undefined) throw new Error('the event ingest runs behind the key check');
    const requestId = String(req.headers['x-request-id']);
    const key = req.headers['idempotency-key'];
    try {
      const parsed = eventInputSchema.safeParse(bodyObject(await readEventBody(req)));
      if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
      const { accepted, replayed } = await ingestEvent(this.deps, { accountId, requestId }, parsed.data, typeof key === 'string' ? key : undefined);
      this.metrics.accepted(replayed);
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      sendJson(res, 202, { data: accepted });
    } catch (error) {
      // Nobody is left to answer; nothing was published (the body was never read whole).
      if (error instanceof ClientAborted) return;
      this.metrics.refused(error);
      throw error;
    }
  }

  /** Express's end, behind the same key check: requests the lane leaves (another case of the path). */
  handler(): RequestHandler {
    return (req, res, next) => {
      this.forward(req, res, { accountId: accountOf(res) }).catch(next);
    };
  }
}
