import { ConfigError } from '@mailer/shared';
import { loadAutomationConfig, SENDS_PER_CONNECTION } from '../src/config';

/** The one variable a lone service cannot start without. */
const SECRET = { INTERNAL_SIGNING_SECRET: 'a-signing-secret-of-at-least-thirty-two-characters' };
const load = (env: NodeJS.ProcessEnv) => loadAutomationConfig({ ...SECRET, ...env });

describe('automation configuration: sends in flight', () => {
  it('keeps four sends in flight per SMTP connection unless told otherwise, campaigns as many', () => {
    const config = load({ SMTP_POOL_SIZE: '8' });
    expect(SENDS_PER_CONNECTION).toBe(4);
    expect(config.SEND_CONCURRENCY).toBe(32);
    expect(config.CAMPAIGN_SEND_CONCURRENCY).toBe(32);
    expect(load({}).SEND_CONCURRENCY).toBe(20);
  });

  it('takes the numbers it is given, each on its own', () => {
    const config = load({ SMTP_POOL_SIZE: '8', SEND_CONCURRENCY: '12' });
    expect(config.SEND_CONCURRENCY).toBe(12);
    expect(config.CAMPAIGN_SEND_CONCURRENCY).toBe(12);
    expect(load({ CAMPAIGN_SEND_CONCURRENCY: '3' })).toMatchObject({ SEND_CONCURRENCY: 20, CAMPAIGN_SEND_CONCURRENCY: 3 });
  });

  it('refuses a number of sends that is not a positive integer', () => {
    expect(() => load({ SEND_CONCURRENCY: '0' })).toThrow(ConfigError);
    expect(() => load({ CAMPAIGN_SEND_CONCURRENCY: 'many' })).toThrow(/CAMPAIGN_SEND_CONCURRENCY/);
  });
});
