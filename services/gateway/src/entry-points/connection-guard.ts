import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { limitAddress } from '../domain/limit-address';

/**
 * Caps the connections one client address (an IPv4 address, an IPv6 /64) may hold open at once:
 * one more is closed as it arrives, before a byte is read, so one address cannot exhaust the
 * process's file descriptors with idle or slow connections. Addresses of trusted proxies carry
 * many clients and are not capped.
 */
export class ConnectionGuard {
  private readonly open = new Map<string, number>();
  private refusedSinceLog = 0;

  constructor(
    private readonly maxPerAddress: number,
    /** A connection that has sent no byte by then is closed (Node's header timeout starts at the first byte). */
    private readonly firstByteTimeoutMs: number,
    private readonly exempt: (address: string) => boolean,
    private readonly logger: Logger,
  ) {}

  readonly onConnection = (socket: Socket): void => {
    const remote = socket.remoteAddress;
    if (remote === undefined) {
      socket.destroy();
      return;
    }
    if (this.exempt(remote)) return;
    const address = limitAddress(remote);
    const count = this.open.get(address) ?? 0;
    if (count >= this.maxPerAddress) {
      socket.destroy();
      if (this.refusedSinceLog++ % 1000 === 0) this.logger.warn({ address, open: count }, 'connection refused: too many open from one address');
      return;
    }
    this.open.set(address, count + 1);
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, this.firstByteTimeoutMs);
    silent.unref();
    socket.once('close', () => {
      clearTimeout(silent);
      const left = (this.open.get(address) ?? 1) - 1;
      if (left <= 0) this.open.delete(address);
      else this.open.set(address, left);
    });
  };

  /** Open connections of one address (for tests and metrics). */
  openFrom(address: string): number {
    return this.open.get(limitAddress(address)) ?? 0;
  }
}
