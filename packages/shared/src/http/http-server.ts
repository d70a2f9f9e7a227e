import type { Duplex } from 'node:stream';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting, lets in-flight requests finish, then drops whatever is left at the deadline. */
  close(deadlineMs?: number): Promise<void>;
}

/** Listens on `port` (0 for any free one) and resolves once the socket is bound. */
export function listen(handler: RequestListener, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = createServer(handler);
  // Slightly above common load-balancer idle timeouts, so they close first and never hit a reset.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  server.on('clientError', answerClientError);
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
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'bad request'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
