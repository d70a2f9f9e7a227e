import { bodyDigest, NO_BODY, signIdentity, verifyIdentity } from '@mailer/shared';

const secret = 's'.repeat(40);

describe('internal identity signature', () => {
  const now = 1_800_000_000;
  const get = { method: 'GET', path: '/api/v1/contacts/7?x=1' };
  const body = Buffer.from('{"email":"a@b.test"}');
  const post = { method: 'POST', path: '/api/v1/contacts', body };

  it('verifies what the gateway signed, for the request it was signed for', () => {
    const header = signIdentity({ accountId: 42, requestId: 'req-1' }, get, secret, now);
    expect(verifyIdentity(header, get, secret, now + 5)).toEqual({ accountId: 42, requestId: 'req-1', bodyDigest: NO_BODY });
    const withBody = signIdentity({ accountId: 42, requestId: 'req-2' }, post, secret, now);
    expect(verifyIdentity(withBody, post, secret, now)).toEqual({ accountId: 42, requestId: 'req-2', bodyDigest: bodyDigest(body) });
  });

  it('refuses the header on another method, path or query (a captured header authorises nothing else)', () => {
    const header = signIdentity({ accountId: 42, requestId: 'req-1' }, get, secret, now);
    expect(verifyIdentity(header, { ...get, method: 'DELETE' }, secret, now)).toBeUndefined();
    expect(verifyIdentity(header, { ...get, path: '/api/v1/contacts/8?x=1' }, secret, now)).toBeUndefined();
    expect(verifyIdentity(header, { ...get, path: '/api/v1/contacts/7?x=2' }, secret, now)).toBeUndefined();
    expect(verifyIdentity(header, { ...get, path: '/api/v1/contacts/7' }, secret, now)).toBeUndefined();
  });

  it('binds the body digest: another digest in the header breaks the signature', () => {
    const header = signIdentity({ accountId: 42, requestId: 'req-1' }, post, secret, now);
    const swapped = header.replace(bodyDigest(body), bodyDigest(Buffer.from('{"email":"evil@b.test"}')));
    expect(swapped).not.toBe(header);
    expect(verifyIdentity(swapped, post, secret, now)).toBeUndefined();
  });

  it('refuses a changed account, another secret, a timestamp more than a few seconds off, and garbage', () => {
    const header = signIdentity({ accountId: 42, requestId: 'req-1' }, get, secret, now);
    expect(verifyIdentity(header.replace('v2.42.', 'v2.43.'), get, secret, now)).toBeUndefined();
    expect(verifyIdentity(header, get, 'o'.repeat(40), now)).toBeUndefined();
    expect(verifyIdentity(header, get, secret, now + 6)).toBeUndefined();
    expect(verifyIdentity(header, get, secret, now - 6)).toBeUndefined();
    expect(verifyIdentity('v2.1.x.1.-.short', get, secret, now)).toBeUndefined();
    expect(verifyIdentity(undefined, get, secret, now)).toBeUndefined();
  });
});
