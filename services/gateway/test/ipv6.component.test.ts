import { headersFor, startGateway, stopGateways, type Gateway } from './support/gateway-harness';

describe('IPv6 (issue #18: limits per /64, the gateway listens on IPv6 too)', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway({ RATE_LIMIT_IP_PER_MIN: '3' });
  });
  afterAll(() => stopGateways());

  it('answers on ::1 as well as on 127.0.0.1', async () => {
    const port = new URL(gateway.url).port;
    expect((await fetch(`http://[::1]:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });

  it('counts every address of one /64 as one client: a fresh address in the same /64 is still limited', async () => {
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    const statuses = [];
    for (const host of ['::1', '::2', ':abcd::3', '::ffff:1:2']) {
      const response = await fetch(`${gateway.url}/api/v1/openapi.json`, { headers: headersFor(undefined, `${prefix}${host}`) });
      statuses.push(response.status);
    }
    expect(statuses.slice(3)).toEqual([429]);
    // Another /64 is another client.
    const other = await fetch(`${gateway.url}/api/v1/openapi.json`, { headers: headersFor(undefined, `${prefix.replace(/:1$/, ':2')}::1`) });
    expect(other.status).not.toBe(429);
  });
});
