// Baselines A2 and E2's hop, run as its own process so it is measured like a service: a bare
// node:http server forwarding every request to one upstream (A, or E) over an undici keep-alive
// pool sized like the gateway's upstream pools, request and response streamed through. No auth,
// no signing, no validation: the gateway's proxy hop without the gateway's work.
import http from 'node:http';
import { Pool } from 'undici';
import { reportOnce, required } from './baseline-process';

const TIMEOUT_MS = 30_000;
/** Hop-by-hop headers (RFC 9110 §7.6.1) and the host: each hop states its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

const pool = new Pool(required('HOP_UPSTREAM_URL'), {
  connections: Number(required('HOP_CONNECTIONS')),
  connectTimeout: 2000,
  headersTimeout: TIMEOUT_MS,
  bodyTimeout: TIMEOUT_MS,
  keepAliveTimeout: 4000,
});

function endToEnd(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

const hasBody = (req: http.IncomingMessage) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/** The upstream's raw header pairs, hop-by-hop ones left out, as the flat list `writeHead` takes. */
function endToEndRaw(raw: Buffer[]): string[] {
  const out: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toString('latin1');
    if (!HOP_BY_HOP.has(name.toLowerCase())) out.push(name, raw[index + 1]!.toString('latin1'));
  }
  return out;
}

/**
 * Streams the answer as it comes: undici's dispatch handler (the one its own request API is built
 * on) writes each chunk to the client as it arrives, pausing the upstream while the client's socket
 * is full, with neither a body stream object nor a pipeline per request: the cheapest way through
 * that buffers nothing. A client gone mid-answer (a load generator closing its sockets at the end
 * of a run) aborts the upstream request: paused for a drain that never comes, it would hold its
 * pooled connection until the upstream closed it.
 */
function forward(req: http.IncomingMessage, res: http.ServerResponse): void {
  let abort: (error: Error) => void = () => undefined;
  let resume: () => void = () => undefined;
  const clientGone = () => {
    if (!res.writableFinished) abort(new Error('client went away'));
  };
  pool.dispatch(
    { method: req.method as 'GET', path: req.url ?? '/', headers: endToEnd(req.headers), body: hasBody(req) ? req : null },
    {
      onConnect(abortUpstream) {
        abort = abortUpstream;
      },
      onHeaders(statusCode, rawHeaders, resumeUpstream) {
        resume = resumeUpstream;
        res.writeHead(statusCode, endToEndRaw(rawHeaders));
        return true;
      },
      onData(chunk) {
        if (res.write(chunk)) return true;
        if (res.destroyed) {
          clientGone();
          return true;
        }
        res.once('drain', resume);
        res.once('close', clientGone);
        return false;
      },
      onComplete() {
        res.end();
      },
      onError(error) {
        if (res.destroyed) return;
        reportOnce(`upstream request failed: ${error.message}`);
        if (res.headersSent) res.destroy();
        else res.writeHead(502, { 'content-length': 0 }).end();
      },
    },
  );
}

const server = http.createServer(forward);

server.keepAliveTimeout = 65_000;
server.listen(Number(required('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.close().finally(() => process.exit(0));
});
