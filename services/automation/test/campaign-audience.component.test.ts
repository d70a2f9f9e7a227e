import { applyContactSnapshot } from '../src/data-access/contacts.repository';
import { countAudience } from '../src/data-access/campaign-deliveries.repository';
import { newAccountId, newContact, startAutomationHarness, type AutomationHarness } from './support/automation-harness';

describe('a campaign audience over the contacts projection', () => {
  let harness: AutomationHarness;
  beforeAll(async () => {
    harness = await startAutomationHarness('campaign_audience');
  });
  afterAll(async () => harness.stop());

  it('matches tags case-insensitively, any or all, and only subscribed, unbounced, unsuppressed contacts', async () => {
    const account = newAccountId();
    const other = newAccountId();
    const now = new Date().toISOString();
    const contacts = [
      newContact({ tags: ['News'] }),
      newContact({ tags: ['news', 'VIP'] }),
      newContact({ tags: ['vip'] }),
      newContact({ tags: [] }),
      newContact({ tags: ['NEWS'], subscribed: false }),
      newContact({ tags: ['news'], bounced: true }),
      newContact({ tags: ['news'], suppression: 'complaint' }),
    ];
    for (const contact of contacts) await applyContactSnapshot(harness.pool, account, contact, now);
    await applyContactSnapshot(harness.pool, other, newContact({ tags: ['news', 'vip'] }), now);

    const count = (tags: string[], match: 'any' | 'all') => countAudience(harness.pool, account, { tags, match });
    expect(await count([], 'any')).toBe(4);
    expect(await count(['NeWs'], 'any')).toBe(2);
    expect(await count(['news', 'vip'], 'any')).toBe(3);
    expect(await count(['news', 'vip'], 'all')).toBe(1);
    expect(await count(['news', 'nobody'], 'all')).toBe(0);
  });
});
