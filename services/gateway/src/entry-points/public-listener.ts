import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { listen, type ListenOptions, type RunningServer } from '@mailer/shared';
import type { GatewayConfig } from '../config';
import type { ResilientLimiter } from '../data-access/resilient-limiter';
import { limitAddress } from '../domain/limit-address';
import { ConnectionGuard } from './connection-guard';
import { trustedProxyMatcher } from './trusted-proxies';

/**
 * Connection hygiene of both public listeners: one per-address connection cap shared by the two
 * ports, short header and idle timeouts, a header size limit, and rate-limit headers on the
 * answers Node gives to requests it cannot parse (400, 408, 431), like on every other answer.
 */
export function publicListenerOptions(config: GatewayConfig, limiter: ResilientLimiter, logger: Logger): ListenOptions {
  const trusted = trustedProxyMatcher(config.TRUST_PROXY.split(',').map((entry) => entry.trim()).filter(Boolean));
  const guard = new ConnectionGuard(config.MAX_CONNECTIONS_PER_ADDRESS, config.HEADERS_TIMEOUT_MS, trusted, logger);
  return {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.IDLE_TIMEOUT_MS,
    maxHeaderBytes: config.MAX_HEADER_BYTES,
    onConnection: guard.onConnection,
    clientErrorHeaders: async (socket) => {
      const remote = (socket as { remoteAddress?: string }).remoteAddress ?? 'unknown';
      const { window } = await limiter.check({ ip: limitAddress(remote), mode: 'anon' });
      return { 'X-RateLimit-Limit': String(window.limit), 'X-RateLimit-Remaining': String(window.remaining), 'X-RateLimit-Reset': String(window.resetAt) };
    },
  };
}

/** Listens on `host`; where the machine has no IPv6, `::` falls back to every IPv4 address. */
export async function listenPublicly(app: RequestListener, port: number, host: string, options: ListenOptions): Promise<RunningServer> {
  try {
    return await listen(app, port, host, options);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (host !== '::' || (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL')) throw error;
    return listen(app, port, '0.0.0.0', options);
  }
}
