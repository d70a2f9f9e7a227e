import { signIdentity, verifyIdentity } from '@mailer/shared';

const secret = 's'.repeat(40);

describe('internal identity signature', () => {
  const now = 1_800_000_000;

  it('verifies what the gateway signed', () => {
    const header = signIdentity({ accountId: 42, requestId: 'req-1' }, secret, now);
    expect(verifyIdentity(header, secret, now + 5)).toEqual({ accountId: 42, requestId: 'req-1' });
  });

  it('refuses a changed account, another secret, a stale timestamp and garbage', () => {
    const header = signIdentity({ accountId: 42, requestId: 'req-1' }, secret, now);
    expect(verifyIdentity(header.replace('v1.42.', 'v1.43.'), secret, now)).toBeUndefined();
    expect(verifyIdentity(header, 'o'.repeat(40), now)).toBeUndefined();
    expect(verifyIdentity(header, secret, now + 61)).toBeUndefined();
    expect(verifyIdentity('v1.1.x.1.short', secret, now)).toBeUndefined();
    expect(verifyIdentity(undefined, secret, now)).toBeUndefined();
  });
});
