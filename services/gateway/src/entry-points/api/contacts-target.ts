import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVICE_ATTRIBUTE, sendJson, withSpan } from '@mailer/shared';
import type { ContactReads } from '@mailer/contacts/public-reads';
import type { LaneTarget } from './proxy-lane';
import type { ForwardedRequest, UpstreamProxy } from './upstream-proxy';

/**
 * The contacts prefix: its public reads answered in this process by contacts' own code
 * (`ContactReads`), every other request proxied to the contacts service.
 */
export class ContactsTarget implements LaneTarget {
  constructor(
    private readonly reads: ContactReads,
    private readonly proxy: UpstreamProxy,
  ) {}

  async forward(req: IncomingMessage, res: ServerResponse, request: ForwardedRequest): Promise<void> {
    const { accountId, path } = request;
    const read = req.method === 'GET' ? this.reads.readFor(path) : undefined;
    if (read === undefined || accountId === undefined) return this.proxy.forward(req, res, request);
    const answer = await withSpan(
      'contacts read',
      { [SERVICE_ATTRIBUTE]: 'contacts', 'http.request.method': 'GET' },
      () => read(accountId),
    );
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    sendJson(res, answer.status, answer.body);
  }
}
