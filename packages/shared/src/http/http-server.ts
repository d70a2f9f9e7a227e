import type { Duplex } from 'node:stream';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What a public listener tightens; internal listeners keep the defaults. */
export interface ListenOptions {
  /** Time to receive a request's whole header block (slow-header clients are cut off with a 408). */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept between requests. */
  keepAliveTimeoutMs?: number;
  /** Largest request line plus headers; larger is a 431. */
  maxHeaderBytes?: number;
  /** Each new connection, before any byte is read (a per-address cap may destroy it). */
  onConnection?: (socket: Socket) => void;
  /** Extra headers for an answer to a request Node could not parse (400, 408, 431). */
  clientErrorHeaders?: (socket: Duplex) => Promise<Record<string, string>>;
}

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting, lets in-flight requests finish, then drops whatever is left at the deadline. */
  close(deadlineMs?: number): Promise<void>;
}

/** Listens on `port` (0 for any free one) and resolves once the socket is bound. */
export function listen(handler: RequestListener, port: number, host = '0.0.0.0', options: ListenOptions = {}): Promise<RunningServer> {
  const headersTimeout = options.headersTimeoutMs ?? 66_000;
  // Node checks the header and request timeouts on this interval (30 s by default): a short
  // timeout needs a check at least as often, or slow clients outlive it.
  const server = createServer({ maxHeaderSize: options.maxHeaderBytes, connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(headersTimeout / 4))) }, handler);
  // Defaults slightly above common load-balancer idle timeouts, so they close first and never hit a reset.
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 65_000;
  server.headersTimeout = headersTimeout;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  if (options.onConnection) server.on('connection', options.onConnection);
  const extraHeaders = options.clientErrorHeaders;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!extraHeaders) {
      answerClientError(error, socket, {});
      return;
    }
    extraHeaders(socket).then(
      (headers) => answerClientError(error, socket, headers),
      () => answerClientError(error, socket, {}),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: bound,
        url: `http://127.0.0.1:${bound}`,
        close: (deadlineMs = 8000) => closeServer(server, deadlineMs),
      });
    });
  });
}

function closeServer(server: Server, deadlineMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
    deadline.unref();
    server.close(() => {
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request timed out'],
};

/**
 * A request Node cannot parse (oversized headers, malformed request line) never reaches the app;
 * Node's default answer has no body. Answer with the same JSON error shape as everything else.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, headers: Record<string, string>): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'bad request'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n` +
      Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
      `\r\n${body}`,
  );
  // A client that never reads or closes (a slow-loris one) must not keep the descriptor.
  setTimeout(() => socket.destroy(), 1000).unref();
}
