import { createLogger } from '@mailer/shared';
import { inboxPruningOf, serviceTestEnv } from '@mailer/testing';
import { startAutomationService } from '../src/automation-service';
import { loadAutomationConfig } from '../src/config';

describe('automation service lifecycle', () => {
  it('migrates its own database, answers health and readiness, refuses unsigned API calls, and stops', async () => {
    const service = await startAutomationService(loadAutomationConfig(serviceTestEnv()), createLogger('automation', { level: 'silent' }));
    try {
      const health = await fetch(`${service.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', service: 'automation' });
      await service.broker.ready();
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const unsigned = await fetch(`${service.url}/api/v1/automation`);
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toEqual({ error: 'unauthorized' });
      const { rows } = await service.pool.query("SELECT to_regclass('processed_messages') AS inbox");
      expect(rows[0].inbox).toBe('processed_messages');
      // Ids older than INBOX_RETENTION_DAYS (7 by default) are pruned, by the age index made for it.
      expect(await inboxPruningOf(service.pool, service.inbox, 7)).toEqual({ recentKept: true, ageIndex: 'brin' });
    } finally {
      await service.stop();
    }
  });
});
