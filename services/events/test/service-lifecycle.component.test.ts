import { createLogger } from '@mailer/shared';
import { serviceTestEnv } from '@mailer/shared/testing';
import { loadEventsConfig } from '../src/config';
import { startEventsService } from '../src/events-service';

describe('events service lifecycle', () => {
  it('answers health and readiness once the broker is connected, refuses unsigned calls, and stops', async () => {
    const service = await startEventsService(loadEventsConfig(serviceTestEnv()), createLogger('events', { level: 'silent' }));
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      await service.broker.ready();
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${service.url}/v1/events`, { method: 'POST' })).status).toBe(401);
    } finally {
      await service.stop();
    }
  });
});
