import { ConfigError } from '@mailer/shared';
import { loadContactsConfig } from '../src/config';

const base = { INTERNAL_SIGNING_SECRET: 's'.repeat(32) };

describe('contacts configuration', () => {
  it('defaults to the system resolvers, a 3 s DNS timeout and no allow-list', () => {
    const config = loadContactsConfig(base);
    expect(config.DNS_SERVERS).toEqual([]);
    expect(config.DNS_TIMEOUT_MS).toBe(3000);
    expect(config.DISPOSABLE_ALLOWLIST).toEqual([]);
    expect(config.PORT).toBe(3010);
  });

  it('reads comma lists of resolvers and allowed domains', () => {
    const config = loadContactsConfig({
      ...base,
      DNS_SERVERS: '127.0.0.1:5353, [::1]:53 ,10.0.0.2',
      DNS_TIMEOUT_MS: '750',
      DISPOSABLE_ALLOWLIST: 'Mailinator.com, ,example.org',
    });
    expect(config.DNS_SERVERS).toEqual(['127.0.0.1:5353', '[::1]:53', '10.0.0.2']);
    expect(config.DNS_TIMEOUT_MS).toBe(750);
    expect(config.DISPOSABLE_ALLOWLIST).toEqual(['mailinator.com', 'example.org']);
  });

  it('refuses a malformed resolver or timeout, naming the variables', () => {
    expect(() => loadContactsConfig({ ...base, DNS_SERVERS: 'dns server:53', DNS_TIMEOUT_MS: '0' })).toThrow(
      ConfigError,
    );
    try {
      loadContactsConfig({ ...base, DNS_SERVERS: 'dns server:53', DNS_TIMEOUT_MS: '0' });
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/DNS_SERVERS/);
      expect(problems).toMatch(/DNS_TIMEOUT_MS/);
    }
  });
});
