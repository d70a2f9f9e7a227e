import { randomInt } from 'node:crypto';
import { createLogger, redisReady } from '@mailer/shared';
import { serviceTestEnv } from '@mailer/testing';
import { loadGatewayConfig } from '../../src/config';
import { startGatewayService } from '../../src/gateway-service';

export type Gateway = Awaited<ReturnType<typeof startGatewayService>>;

/** Every log line any gateway of this test file wrote, at the most verbose level. */
export const capturedLogs: string[] = [];
/** Every key plaintext this test file issued, to prove none of them reached a log line. */
export const issuedKeys: string[] = [];

const running: Gateway[] = [];

/**
 * A gateway in-process on port 0 against this run's Postgres and Redis, trusting 127.0.0.1 as a
 * proxy so tests can speak for many client addresses with X-Forwarded-For.
 */
export async function startGateway(overrides: Record<string, string> = {}): Promise<Gateway> {
  const config = loadGatewayConfig(
    // No account app here (port 1 refuses): its pages are tested on the whole stack, test/e2e/app-*.
    serviceTestEnv({
      GATEWAY_PORT: '0',
      EVENTS_PORT: '0',
      TRUST_PROXY: '127.0.0.1',
      WEB_SERVICE_URL: 'http://127.0.0.1:1',
      ...overrides,
    }),
  );
  const logger = createLogger('gateway', {
    level: 'trace',
    destination: { write: (line: string) => void capturedLogs.push(line) },
  });
  const gateway = await startGatewayService(config, logger);
  running.push(gateway);
  // Until Redis is connected the per-process limiter decides; a test counting exact limits must not
  // have its first requests counted there and the rest in Redis. A Redis that never comes is a
  // test's own choice: it still gets its gateway.
  await redisReady(gateway.redis, 3000).catch(() => undefined);
  return gateway;
}

export async function stopGateways(): Promise<void> {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
}

/** A client address no other test uses, so Redis windows never overlap between tests. */
export const uniqueIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export function headersFor(key: string | undefined, ip: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), 'x-forwarded-for': ip, ...extra };
}

export interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

/** The X-RateLimit-* headers as numbers; fails the test when one is missing. */
export function rateHeaders(response: Response): RateHeaders {
  const read = (name: string) => {
    const value = response.headers.get(name);
    if (value === null || !/^\d+$/.test(value)) throw new Error(`${name} missing or malformed: ${value}`);
    return Number(value);
  };
  return { limit: read('x-ratelimit-limit'), remaining: read('x-ratelimit-remaining'), reset: read('x-ratelimit-reset') };
}

/** The assertion that no issued key appears in any captured log line. */
export function expectNoKeyInLogs(): void {
  const leaks = capturedLogs.filter((line) => issuedKeys.some((key) => line.includes(key)));
  expect(leaks).toEqual([]);
}
