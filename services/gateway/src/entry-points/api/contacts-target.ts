import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVICE_ATTRIBUTE, sendJson, withSpan, type JsonAnswer } from '@mailer/shared';
import type { ContactCreates } from '@mailer/contacts/public-creates';
import type { ContactReads } from '@mailer/contacts/public-reads';
import type { LaneTarget } from './proxy-lane';
import { ClientAborted, requestBody } from './request-body';
import type { ForwardedRequest, UpstreamProxy } from './upstream-proxy';

/**
 * The contacts prefix: its public reads, and its creates where this gateway writes contacts'
 * tables, answered in this process by contacts' own code (`ContactReads`, `ContactCreates`); every
 * other request proxied to the contacts service.
 */
export class ContactsTarget implements LaneTarget {
  constructor(
    private readonly proxy: UpstreamProxy,
    private readonly reads: ContactReads,
    private readonly creates: ContactCreates | undefined,
  ) {}

  async forward(req: IncomingMessage, res: ServerResponse, request: ForwardedRequest): Promise<void> {
    const { accountId, path } = request;
    if (accountId === undefined) return this.proxy.forward(req, res, request);
    if (req.method === 'GET') {
      const read = this.reads.readFor(path);
      if (read === undefined) return this.proxy.forward(req, res, request);
      return send(res, await withSpan('contacts read', { [SERVICE_ATTRIBUTE]: 'contacts', 'http.request.method': 'GET' }, () => read(accountId)));
    }
    const { creates } = this;
    if (!creates?.takes(req.method, path, req.headers)) return this.proxy.forward(req, res, request);
    let body: Buffer | null;
    try {
      body = await requestBody(req, creates.bodyLimitBytes);
    } catch (error) {
      if (error instanceof ClientAborted) return; // nobody is left to answer, and nothing was written
      throw error;
    }
    // `takes` saw a declared length above zero, so a body came unless the client lied about it.
    const bytes = body ?? Buffer.alloc(0);
    send(res, await withSpan('contacts create', { [SERVICE_ATTRIBUTE]: 'contacts', 'http.request.method': 'POST' }, () => creates.create(accountId, bytes)));
  }
}

function send(res: ServerResponse, answer: JsonAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  sendJson(res, answer.status, answer.body);
}
