import { createLogger, redisReady } from '@mailer/shared';
import { serviceTestEnv } from '@mailer/testing';
import { loadGatewayConfig } from '../src/config';
import { startGatewayService } from '../src/gateway-service';

describe('gateway service lifecycle', () => {
  it('serves health on both listeners, readiness with Postgres and Redis, JSON 404s, and stops', async () => {
    const config = loadGatewayConfig(serviceTestEnv({ GATEWAY_PORT: '0', EVENTS_PORT: '0' }));
    const service = await startGatewayService(config, createLogger('gateway', { level: 'silent' }));
    try {
      for (const base of [service.url, service.eventsUrl]) {
        const health = await fetch(`${base}/healthz`);
        expect(health.status).toBe(200);
        expect(health.headers.get('content-type')).toMatch(/application\/json/);
      }
      await redisReady(service.redis);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const missing = await fetch(`${service.url}/nowhere`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: 'route not found' });
    } finally {
      await service.stop();
    }
  });
});
