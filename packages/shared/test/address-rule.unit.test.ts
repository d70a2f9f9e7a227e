import { readFileSync } from 'node:fs';
import { domainToASCII } from 'node:url';
import { emailDomain, emailKey, isDisposableDomain, isWellFormedEmail, normaliseDomain, normaliseEmail } from '../src/email-address/index';
import { namesOfJsonArray } from '../src/email-address/json-name-list';
import { SortedNames } from '../src/email-address/sorted-names';

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

describe('sorted names', () => {
  // Names as the list's file would hold them, read as the list is.
  const sortedNames = (list: string[]) => SortedNames.fromRanges(namesOfJsonArray(Buffer.from(JSON.stringify(list)), (name) => name));
  const names = sortedNames(['mid.example', 'a.example', 'zz.example', 'xn--n-kgaa.example', 'a.example']);

  it('finds each name, the first and last in order included, once however often it was given', () => {
    expect(names.size).toBe(4);
    for (const name of ['a.example', 'mid.example', 'zz.example', 'xn--n-kgaa.example']) expect(names.has(name)).toBe(true);
  });

  it('finds no name it was not given, a prefix, an extension or a Unicode spelling of one included', () => {
    for (const name of ['', 'a', 'a.exampl', 'a.examplex', 'b.example', 'zzz.example', 'ünï.example']) expect(names.has(name)).toBe(false);
    expect(sortedNames([]).has('a.example')).toBe(false);
  });

  it('refuses a name outside ASCII, whose order as a string is not its bytes\' order', () => {
    expect(() => sortedNames(['a.example', 'ünï.example'])).toThrow(/ASCII/);
  });
});

describe('a name list read from its JSON bytes', () => {
  const read = (json: string) => SortedNames.fromRanges(namesOfJsonArray(Buffer.from(json), normaliseDomain));

  it('holds plain names as given, and others as the normalising function writes them', () => {
    const names = read(' [ "zz.example", "Upper.Example",\n"b\\u00fccher.example" , "a.example","instágram.com", "a.example", "" ] ');
    expect(names.size).toBe(5);
    for (const name of ['a.example', 'zz.example', 'upper.example', 'xn--bcher-kva.example', 'xn--instgram-cza.com'])
      expect(names.has(name)).toBe(true);
    expect(names.has('Upper.Example')).toBe(false);
    expect(read('[]').size).toBe(0);
  });

  it.each(['', '{}', '["a.example"', '["a.example",]', '["a.example" "b.example"]', '["a.example"] x', '[1]', '["a.example'])(
    'refuses %j, which is not a JSON array of strings',
    (json) => expect(() => read(json)).toThrow(/JSON/),
  );
});

describe('disposable domains', () => {
  it('knows listed providers and subdomains of wildcard entries, case-insensitively', () => {
    expect(isDisposableDomain('mailinator.com', [])).toBe(true);
    expect(isDisposableDomain('anything.anonaddy.me', [])).toBe(true);
    expect(isDisposableDomain('gmail.com', [])).toBe(false);
  });

  it('matches every name of the list, and its internationalised names in their ASCII form', () => {
    const listed = JSON.parse(readFileSync(require.resolve('disposable-email-domains/index.json'), 'utf8')) as string[];
    const missed = listed.filter((name) => !isDisposableDomain(domainToASCII(name), []));
    expect(missed).toEqual([]);
    // Listed as 'instágram.com'; an address's domain reaches the check as normaliseEmail writes it.
    expect(isDisposableDomain(normaliseEmail('ann@instágram.com')!.domain, [])).toBe(true);
  });

  it('lets the operator allow-list a domain and everything below it', () => {
    expect(isDisposableDomain('mailinator.com', ['mailinator.com'])).toBe(false);
    expect(isDisposableDomain('x.anonaddy.me', ['anonaddy.me'])).toBe(false);
  });
});
