import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * What the proxy does to traffic (no netem on these machines, so faults live here):
 * - `latency`: every chunk, both ways, is delayed by `ms` (order kept);
 * - `stall`: connections are accepted but nothing is forwarded either way (a black hole);
 * - `reset`: every connection, open or new, is reset (TCP RST);
 * - `close-after`: a connection is closed once `bytes` have been forwarded in `direction`
 *   (default both ways together; `to-client` cuts a response mid-stream).
 * A fault applies to open connections and new ones; `none` forwards normally again.
 */
export type TcpFault =
  | { kind: 'none' }
  | { kind: 'latency'; ms: number }
  | { kind: 'stall' }
  | { kind: 'reset' }
  | { kind: 'close-after'; bytes: number; direction?: Direction | 'both' };

type Direction = 'to-client' | 'to-target';

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones: the target "goes away". */
  cut(): void;
  /** Forwards again: the target "comes back". */
  resume(): void;
  /** Sets the fault for open and new connections (see TcpFault). */
  fault(fault: TcpFault): void;
  /** Connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream: Socket;
  forwarded: number;
  drop(): void;
  reset(): void;
}

/**
 * A loopback TCP forwarder to `target`, for tests that need a server (RabbitMQ, Redis, SMTP) to
 * disappear, slow down, hang or break mid-stream without touching the real server that other tests share.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let cut = false;
  let current: TcpFault = { kind: 'none' };
  let accepted = 0;

  /** Forwards one chunk under the current fault; a delayed chunk keeps its place in the queue. */
  const forward = (link: Link, way: Direction, from: Socket, to: Socket, chunk: Buffer, queue: { tail: Promise<void> }) => {
    const fault = current;
    if (fault.kind === 'stall') return;
    let data = chunk;
    if (fault.kind === 'close-after' && (fault.direction ?? 'both') !== (way === 'to-client' ? 'to-target' : 'to-client')) {
      const room = fault.bytes - link.forwarded;
      data = chunk.subarray(0, Math.max(0, room));
      link.forwarded += data.length;
    }
    const send = () => {
      // Backpressure as pipe() would: a slow reader pauses the writer's side.
      if (data.length > 0 && !to.destroyed && !to.write(data)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
      if (fault.kind === 'close-after' && link.forwarded >= fault.bytes) link.drop();
    };
    if (fault.kind === 'latency') {
      queue.tail = queue.tail.then(() => new Promise<void>((resolve) => setTimeout(resolve, fault.ms))).then(send);
    } else {
      queue.tail = queue.tail.then(send);
    }
  };

  const server = net.createServer((client) => {
    accepted += 1;
    if (cut) {
      client.destroy();
      return;
    }
    if (current.kind === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const link: Link = {
      client,
      upstream,
      forwarded: 0,
      drop() {
        client.destroy();
        upstream.destroy();
        links.delete(link);
      },
      reset() {
        if (!client.destroyed) client.resetAndDestroy();
        if (!upstream.destroyed) upstream.resetAndDestroy();
        links.delete(link);
      },
    };
    links.add(link);
    client.on('error', link.drop).on('close', link.drop);
    upstream.on('error', link.drop).on('close', link.drop);
    const toUpstream = { tail: Promise.resolve() };
    const toClient = { tail: Promise.resolve() };
    client.on('data', (chunk: Buffer) => forward(link, 'to-target', client, upstream, chunk, toUpstream));
    upstream.on('data', (chunk: Buffer) => forward(link, 'to-client', upstream, client, chunk, toClient));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const dropAll = () => {
    for (const link of [...links]) link.drop();
  };
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      cut = true;
      dropAll();
    },
    resume() {
      cut = false;
    },
    fault(fault) {
      current = fault;
      if (fault.kind === 'reset') for (const link of [...links]) link.reset();
    },
    accepted: () => accepted,
    close() {
      cut = true;
      dropAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
