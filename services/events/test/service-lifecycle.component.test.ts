import { createLogger, FRAGMENT_PATH, redisReady, type OpenApiFragment } from '@mailer/shared';
import { serviceTestEnv } from '@mailer/testing';
import { loadEventsConfig } from '../src/config';
import { startEventsService } from '../src/events-service';

describe('events service lifecycle', () => {
  it('answers health, readiness once Redis and the broker are connected, its API fragment, refuses unsigned calls, and stops', async () => {
    const service = await startEventsService(loadEventsConfig(serviceTestEnv()), createLogger('events', { level: 'silent' }));
    try {
      const health = await fetch(`${service.url}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok', service: 'events' }]);
      await Promise.all([service.broker.ready(), redisReady(service.redis)]);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${service.url}/v1/events`, { method: 'POST' })).status).toBe(401);
      const missing = await fetch(`${service.url}/nowhere`);
      expect([missing.status, await missing.json()]).toEqual([404, { error: 'route not found' }]);

      // Unsigned, like every service's: the gateway merges it into /api/v1/openapi.json.
      const fragment = (await (await fetch(`${service.url}${FRAGMENT_PATH}`)).json()) as OpenApiFragment;
      expect(Object.keys(fragment.paths)).toEqual(['/v1/events']);
      expect(fragment.paths['/v1/events']?.post).toMatchObject({ operationId: 'sendEvent', responses: { '202': {}, '503': {} } });
      expect(Object.keys(fragment.components.schemas)).toEqual(expect.arrayContaining(['ProductEvent', 'EventAccepted', 'EventValidationError']));
    } finally {
      await service.stop();
    }
  });
});
