import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface BenchReceiver {
  url: string;
  /** Connections accepted so far: proof the webhooks service was delivering. */
  connections: () => number;
  close: () => Promise<void>;
}

/** Listens on loopback, counts and keeps every connection (closed with the server). */
async function listenOnLoopback(server: Server, path: string): Promise<BenchReceiver> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A webhook endpoint as dead as one can be: it accepts each connection and never sends a byte
 * back, so every delivery attempt waits out the webhooks service's whole timeout.
 */
export function startDeadReceiver(): Promise<BenchReceiver> {
  // Read and drop the request; answer nothing.
  return listenOnLoopback(createServer((socket) => socket.on('data', () => undefined)), '/never-answers');
}

/** The control: an endpoint that answers every delivery at once (204), so only the deadness differs. */
export function startLiveReceiver(): Promise<BenchReceiver> {
  return listenOnLoopback(
    createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    }),
    '/answers',
  );
}
