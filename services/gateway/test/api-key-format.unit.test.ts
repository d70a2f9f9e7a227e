import fc from 'fast-check';
import { generateKey, hashSecret, keyFromAuthorization, parseKey } from '../src/domain/api-key-format';
import { isExpired, keyStatus } from '../src/domain/key-status';

describe('API key format', () => {
  it('generates keys that parse back to their id and secret, with a SHA-256 of the secret', () => {
    const key = generateKey();
    expect(key.plaintext).toMatch(/^mk_live_[0-9A-Za-z]{12}_[0-9A-Za-z]{38}$/);
    expect(parseKey(key.plaintext)).toEqual({ keyId: key.keyId, secret: key.secret });
    expect(key.secretHash.equals(hashSecret(key.secret))).toBe(true);
    expect(keyFromAuthorization(`Bearer ${key.plaintext}`)).toEqual({ keyId: key.keyId, secret: key.secret });
  });

  it('carries at least 160 bits of randomness in the secret and never repeats', () => {
    expect(32 * Math.log2(62)).toBeGreaterThan(160);
    const secrets = new Set(Array.from({ length: 2000 }, () => generateKey().secret));
    expect(secrets.size).toBe(2000);
  });

  it('refuses any single-character change (the CRC32 checksum catches it)', () => {
    const { plaintext } = generateKey();
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    fc.assert(
      fc.property(fc.integer({ min: 8, max: plaintext.length - 1 }), fc.constantFrom(...alphabet), (index, char) => {
        fc.pre(plaintext[index] !== char && plaintext[index] !== '_');
        const altered = `${plaintext.slice(0, index)}${char}${plaintext.slice(index + 1)}`;
        return parseKey(altered) === undefined;
      }),
      { numRuns: 500 },
    );
  });

  it('refuses other schemes and shapes', () => {
    const { plaintext } = generateKey();
    for (const header of [undefined, '', plaintext, `Basic ${plaintext}`, `Bearer`, `Bearer ${plaintext} extra`, `Bearer mk_test_x`]) {
      expect(keyFromAuthorization(header)).toBeUndefined();
    }
    expect(keyFromAuthorization(`bearer  ${plaintext}`)).toBeDefined();
  });
});

describe('key expiry', () => {
  const at = (iso: string) => Date.parse(iso);

  it('keeps a key with expiry date D working through the end of D in UTC', () => {
    expect(isExpired('2026-03-10', at('2026-03-10T00:00:00Z'))).toBe(false);
    expect(isExpired('2026-03-10', at('2026-03-10T23:59:59.999Z'))).toBe(false);
    expect(isExpired('2026-03-10', at('2026-03-11T00:00:00Z'))).toBe(true);
    expect(isExpired(null, at('2999-01-01T00:00:00Z'))).toBe(false);
  });

  it('reports revoked before expired', () => {
    expect(keyStatus({ expiresOn: '2020-01-01', revokedAt: new Date() })).toBe('revoked');
    expect(keyStatus({ expiresOn: '2020-01-01', revokedAt: null })).toBe('expired');
    expect(keyStatus({ expiresOn: null, revokedAt: null })).toBe('active');
  });
});
