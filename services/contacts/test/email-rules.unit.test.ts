import { mergeCustomProperties, distinctTags, sameProperties } from '../src/domain/contact-input';
import { isDisposableDomain } from '../src/domain/disposable-domains';
import { emailDomain, isWellFormedEmail } from '../src/domain/email-format';

describe('email format', () => {
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
    'a@mx.t3st',
    ` a@mx.test`,
    `${'l'.repeat(65)}@mx.test`,
  ])('refuses %j', (email) => {
    expect(isWellFormedEmail(email)).toBe(false);
  });

  it('gives the domain in ASCII lower case, IDNs as punycode', () => {
    expect(emailDomain('A@MX.Test')).toBe('mx.test');
    expect(emailDomain('a@bücher.example')).toBe('xn--bcher-kva.example');
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

describe('contact input rules', () => {
  it('merges custom properties key by key, null removing, without prototype tricks', () => {
    const merged = mergeCustomProperties(
      { a: 1, b: 'x' },
      JSON.parse('{"b": null, "c": true, "__proto__": "p"}') as Record<string, string | boolean | null>,
    );
    expect(merged).toEqual(JSON.parse('{"a": 1, "c": true, "__proto__": "p"}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(sameProperties({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameProperties({ a: 1 }, { a: '1' })).toBe(false);
  });

  it('keeps the first spelling of tags that differ only in case', () => {
    expect(distinctTags(['VIP', 'vip', 'Beta', 'ViP'])).toEqual(['VIP', 'Beta']);
  });
});
