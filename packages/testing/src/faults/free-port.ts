import net, { type AddressInfo } from 'node:net';

/**
 * Ports a test names before it listens on them are taken from below the kernel's ephemeral range
 * (32768-60999 on Linux): a port the kernel handed out and took back could be given to any of the
 * many outgoing connections (Postgres, Redis, RabbitMQ clients) opened before the test listens,
 * which then failed with EADDRINUSE. Below the range only another test's pick can collide, and a
 * pick is checked free first.
 */
const NAMED_PORTS = { from: 20_000, to: 32_000 };

/** A loopback TCP port nobody listens on right now, outside the range outgoing connections use. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = NAMED_PORTS.from + Math.floor(Math.random() * (NAMED_PORTS.to - NAMED_PORTS.from));
    if (await canListen(port)) return port;
  }
  return kernelPort();
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on `port`, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listening on port ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
