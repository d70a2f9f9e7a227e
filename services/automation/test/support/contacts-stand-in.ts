import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDENTITY_HEADER, verifyIdentity } from '@mailer/shared';
import { TEST_SIGNING_SECRET } from '@mailer/testing';

/** One request the stand-in answered: whose it was (by signature) and what it asked for. */
export interface MembersRequest {
  accountId: number | undefined;
  segmentId: number;
  after: string | null;
  limit: string | null;
  status: number;
}

/**
 * A real HTTP server in place of the contacts service's internal API, for component tests only:
 * `GET /internal/v1/segments/:id/members` of the segments set on it, checking the signed identity
 * as contacts does and answering pages of `pageSize` ids (small, so every test pages), or 503 while
 * `down`. The shape is contacts' own: `{ data: { contact_ids, next_after } }`.
 */
export async function startContactsStandIn(pageSize = 2) {
  const segments = new Map<string, number[]>();
  const requests: MembersRequest[] = [];
  const state = { down: false };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const match = /^\/internal\/v1\/segments\/(\d+)\/members$/.exec(url.pathname);
    const identity = verifyIdentity(req.headers[IDENTITY_HEADER] as string | undefined, { method: req.method ?? 'GET', path: req.url ?? '/' }, TEST_SIGNING_SECRET);
    const answer = (status: number, body: unknown) => {
      if (match) requests.push({ accountId: identity?.accountId, segmentId: Number(match[1]), after: url.searchParams.get('after'), limit: url.searchParams.get('limit'), status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (!identity) return answer(401, { error: 'unauthorized' });
    if (!match || req.method !== 'GET') return answer(404, { error: 'not found' });
    if (state.down) return answer(503, { error: 'contacts is unavailable' });
    const members = segments.get(`${identity.accountId}:${match[1]}`);
    if (!members) return answer(404, { error: 'segment not found' });
    const after = Number(url.searchParams.get('after') ?? '0');
    const page = members.filter((id) => id > after).slice(0, pageSize);
    return answer(200, { data: { contact_ids: page, next_after: page.length === pageSize ? page[page.length - 1] : null } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** The segment's members as contacts would evaluate them now (any order: answered by id). */
    setSegment: (accountId: number, segmentId: number, contactIds: number[]) => segments.set(`${accountId}:${segmentId}`, [...contactIds].sort((a, b) => a - b)),
    /** While true, every members page answers 503. */
    setDown: (down: boolean) => void (state.down = down),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type ContactsStandIn = Awaited<ReturnType<typeof startContactsStandIn>>;
