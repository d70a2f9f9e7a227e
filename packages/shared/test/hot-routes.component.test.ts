import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  AppError,
  bodyObject,
  createMetricsRegistry,
  errorMiddleware,
  httpMetrics,
  HotRoutes,
  identityOf,
  IDENTITY_HEADER,
  jsonBody,
  listen,
  notFound,
  requestId,
  requireIdentity,
  signIdentity,
  validationFailed,
  type Identity,
  type JsonAnswer,
  type RunningServer,
} from '@mailer/shared';
import { metricValue } from '@mailer/testing';
import { memoryLogger } from './helpers';

const SECRET = 'hot-routes-test-secret-0123456789';

/** One answer, whichever end serves it, as a service shares it between the two. */
async function answerThing(identity: Identity, id: string, body: unknown): Promise<JsonAnswer> {
  if (id === '404') throw notFound('thing');
  if (id === 'db-down')
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  if (id === 'boom') throw new Error('secret internals');
  if (body === undefined) return { status: 200, body: { data: { id, account: identity.accountId } } };
  const fields = bodyObject(body);
  if (fields.invalid) throw validationFailed(['name: is invalid'], { field: 'name' });
  if (fields.gone) throw new AppError('THING.GONE', 'thing is gone').withHeaders({ 'Retry-After': '9' });
  return { status: 201, body: { data: { id, ...fields } }, headers: { 'X-Thing': 'made' } };
}

describe('hot routes in front of an Express app', () => {
  const { logger } = memoryLogger();
  const metrics = createMetricsRegistry('hot-test', { processMetrics: false });
  let expressServed = 0;
  let both: RunningServer;
  let expressOnly: RunningServer;

  beforeAll(async () => {
    const app = express();
    app.disable('x-powered-by');
    app.disable('etag');
    app.use(httpMetrics(metrics));
    app.use((_req, _res, next) => {
      expressServed += 1;
      next();
    });
    app.use(requestId());
    app.use(requireIdentity(SECRET), jsonBody('1kb'));
    app.get('/things/:id', async (req, res) => {
      const answer = await answerThing(identityOf(res), String(req.params.id), undefined);
      res
        .set(answer.headers ?? {})
        .status(answer.status)
        .json(answer.body);
    });
    app.post('/things/:id', async (req, res) => {
      const answer = await answerThing(identityOf(res), String(req.params.id), req.body);
      res
        .set(answer.headers ?? {})
        .status(answer.status)
        .json(answer.body);
    });
    app.use(errorMiddleware(logger, { 'THING.GONE': 410 }));
    const hot = new HotRoutes({
      service: 'hot-test',
      signingSecret: SECRET,
      metrics,
      logger,
      statusByCode: { 'THING.GONE': 410 },
    })
      .add('GET', '/things/:id', ({ identity, params }) => answerThing(identity, params[0]!, undefined))
      .add('POST', '/things/:id', ({ identity, params, body }) => answerThing(identity, params[0]!, body), {
        bodyLimitBytes: 1024,
      });
    both = await listen(hot.listener(app), 0, '127.0.0.1');
    expressOnly = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => Promise.all([both.close(), expressOnly.close()]));

  interface Call {
    method: 'GET' | 'POST';
    path: string;
    body?: string;
    /** The body the signature covers, when it differs from the one sent. */
    signedBody?: string;
    headers?: Record<string, string>;
  }

  const headersFor = (call: Call, requestIdValue: string): Record<string, string> => {
    const signed = call.signedBody ?? call.body;
    const identity = signIdentity(
      { accountId: 42, requestId: requestIdValue },
      { method: call.method, path: call.path, body: signed === undefined ? null : Buffer.from(signed) },
      SECRET,
    );
    return {
      'x-request-id': requestIdValue,
      [IDENTITY_HEADER]: identity,
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...call.headers,
    };
  };

  /** Status, the headers a client reads, and the body, from one server. */
  async function send(server: RunningServer, call: Call) {
    const response = await fetch(
      `http://127.0.0.1:${(server.server.address() as AddressInfo).port}${call.path}`,
      {
        method: call.method,
        headers: headersFor(call, 'req-1'),
        body: call.body,
      },
    );
    const headers = Object.fromEntries(
      ['content-type', 'x-request-id', 'retry-after', 'x-thing'].map((name) => [
        name,
        response.headers.get(name),
      ]),
    );
    return { status: response.status, headers, body: await response.text() };
  }

  /** The same request to both servers; the answers must be identical. Returns whether Express served it on `both`. */
  async function compare(call: Call): Promise<{ status: number; body: string; viaExpress: boolean }> {
    const before = expressServed;
    const fromBoth = await send(both, call);
    const viaExpress = expressServed > before;
    const fromExpress = await send(expressOnly, call);
    expect(fromBoth).toEqual(fromExpress);
    return { status: fromBoth.status, body: fromBoth.body, viaExpress };
  }

  it('serves the common shapes itself, answering exactly as the Express app does', async () => {
    const cases: [Call, number][] = [
      [{ method: 'GET', path: '/things/7' }, 200],
      [{ method: 'GET', path: '/things/7?ignored=1' }, 200],
      [{ method: 'GET', path: '/things/404' }, 404],
      [{ method: 'GET', path: '/things/db-down' }, 503],
      [{ method: 'GET', path: '/things/boom' }, 500],
      [{ method: 'POST', path: '/things/7', body: '{"name":"Ada"}' }, 201],
      [{ method: 'POST', path: '/things/7', body: '\uFEFF{"name":"Ada"}' }, 201],
      [{ method: 'POST', path: '/things/7', body: '{"invalid":true}' }, 422],
      [{ method: 'POST', path: '/things/7', body: '{"gone":true}' }, 410],
      [{ method: 'POST', path: '/things/7', body: '[1,2]' }, 400],
      [{ method: 'POST', path: '/things/7', body: '{"name":' }, 400],
      // A body other than the one the gateway signed.
      [{ method: 'POST', path: '/things/7', body: '{"name":"Eve"}', signedBody: '{"name":"Ada"}' }, 401],
      [
        {
          method: 'POST',
          path: '/things/7',
          body: '{"name":"Ada"}',
          headers: { 'content-type': 'application/json; charset=utf-8' },
        },
        201,
      ],
    ];
    for (const [call, status] of cases) {
      const answer = await compare(call);
      expect([call, answer.status, answer.viaExpress]).toEqual([call, status, false]);
    }
  });

  it('leaves every other shape to the Express app: bad signatures, other media types, HEAD, paths in another case', async () => {
    const cases: [Call & { method: 'GET' | 'POST' }, number][] = [
      [{ method: 'GET', path: '/things/7', headers: { [IDENTITY_HEADER]: 'v2.forged' } }, 401],
      [
        { method: 'POST', path: '/things/7', body: 'name=Ada', headers: { 'content-type': 'text/plain' } },
        415,
      ],
      [{ method: 'POST', path: '/things/7', body: JSON.stringify({ name: 'x'.repeat(2000) }) }, 413],
      [{ method: 'GET', path: '/Things/7' }, 200],
      [{ method: 'GET', path: '/things/7/' }, 200],
      [{ method: 'GET', path: '/things/a%20b' }, 200],
    ];
    for (const [call, status] of cases) {
      const answer = await compare(call);
      expect([call, answer.status, answer.viaExpress]).toEqual([call, status, true]);
    }
  });

  it('counts its answers under the route template, like the Express app', async () => {
    const before = metricValue(await metrics.metrics(), 'http_requests_total', {
      method: 'GET',
      route: '/things/:id',
      status: '200',
    });
    await compare({ method: 'GET', path: '/things/8' });
    const after = metricValue(await metrics.metrics(), 'http_requests_total', {
      method: 'GET',
      route: '/things/:id',
      status: '200',
    });
    // One from the lane, one from the Express-only server (both count on the same registry).
    expect((after ?? 0) - (before ?? 0)).toBe(2);
  });
});
