import { emailDomain, emailKey, isDisposableDomain, isWellFormedEmail, normaliseEmail } from '../src/email-address/index';

describe('the address rule', () => {
  it.each(['a@mx.test', 'First.Last+tag@Example.COM', "o'brien@sub.domain.org", 'x@xn--bcher-kva.example'])(
    'accepts %s',
    (email) => {
      expect(isWellFormedEmail(email)).toBe(true);
    },
  );

  it.each([
    '',
    'plain',
    '@mx.test',
    'a@',
    'a@b',
    'a@@mx.test',
    'a b@mx.test',
    '.a@mx.test',
    'a..b@mx.test',
    'a@-mx.test',
    'm@foo-.com',
    'a@mx.t3st',
    'a\u0000@mx.test',
    'a@mx.test\r\nBcc: x@evil.test',
    'a\u0085b@mx.test',
    `${'l'.repeat(65)}@mx.test`,
    `a@${Array.from({ length: 5 }, () => 'd'.repeat(60)).join('.')}.test`,
  ])('refuses %j', (email) => {
    expect(normaliseEmail(email)).toBeUndefined();
  });

  it('trims surrounding spaces, keeps the local part as given, lower-cases and IDNA-normalises the domain', () => {
    expect(normaliseEmail('  First.Last@Bücher.Example \t')).toEqual({
      address: 'First.Last@xn--bcher-kva.example',
      domain: 'xn--bcher-kva.example',
    });
    expect(emailDomain('A@MX.Test')).toBe('mx.test');
  });

  it('gives two spellings of one mailbox the same key', () => {
    expect(emailKey(' Ann@BÜCHER.example')).toBe(emailKey('ann@xn--bcher-kva.example'));
  });
});

describe('disposable domains', () => {
  it('knows listed providers and subdomains of wildcard entries, case-insensitively', () => {
    expect(isDisposableDomain('mailinator.com', [])).toBe(true);
    expect(isDisposableDomain('anything.anonaddy.me', [])).toBe(true);
    expect(isDisposableDomain('gmail.com', [])).toBe(false);
  });

  it('lets the operator allow-list a domain and everything below it', () => {
    expect(isDisposableDomain('mailinator.com', ['mailinator.com'])).toBe(false);
    expect(isDisposableDomain('x.anonaddy.me', ['anonaddy.me'])).toBe(false);
  });
});
