import { generateKey, hashSecret, keyWithParts } from '../src/domain/api-key-format';
import { KeyAuthenticator } from '../src/domain/key-authenticator';
import type { KeyCredentials } from '../src/data-access/api-keys.repository';

/** A key store with one real key, counting how often it is asked. */
function keyStore() {
  const real = generateKey();
  const credentials: KeyCredentials = {
    id: 1,
    accountId: 7,
    keyId: real.keyId,
    secretHash: hashSecret(real.secret),
    expiresOn: null,
    revoked: false,
    apiAccess: true,
  };
  const asked: string[] = [];
  const lookup = async (keyId: string) => {
    asked.push(keyId);
    return keyId === credentials.keyId ? credentials : undefined;
  };
  return { real, asked, authenticator: new KeyAuthenticator(lookup, { ttlMs: 60_000, maxEntries: 100 }) };
}

const bearer = (key: string) => `Bearer ${key}`;

describe('KeyAuthenticator: an unknown key id costs what a known one does (no timing oracle)', () => {
  it('asks the store once per id, known or not, and answers repeats from memory for both', async () => {
    const { real, asked, authenticator } = keyStore();
    const wrongSecret = keyWithParts(real.keyId, generateKey().secret);
    const unknownId = generateKey().plaintext;
    for (let round = 0; round < 3; round++) {
      expect(await authenticator.authenticate(bearer(wrongSecret))).toEqual({ kind: 'invalid', reason: 'wrong_secret', keyId: real.keyId });
      expect(await authenticator.authenticate(bearer(unknownId))).toMatchObject({ kind: 'invalid', reason: 'unknown', keyId: expect.any(String) });
    }
    expect(asked).toHaveLength(2);
    expect(await authenticator.authenticate(bearer(real.plaintext))).toMatchObject({ kind: 'ok', accountId: 7, fromCache: true });
  });

  it('gives both refusals the same shape for the caller (a key id for the limiter either way)', async () => {
    const { real, authenticator } = keyStore();
    const wrong = await authenticator.authenticate(bearer(keyWithParts(real.keyId, generateKey().secret)));
    const unknown = await authenticator.authenticate(bearer(generateKey().plaintext));
    expect(Object.keys(wrong).sort()).toEqual(Object.keys(unknown).sort());
  });

  it('asks the store again when told to bypass memory (Redis cannot vouch), for a known id and an unknown one', async () => {
    const { real, asked, authenticator } = keyStore();
    const unknownId = generateKey().plaintext;
    await authenticator.authenticate(bearer(real.plaintext));
    await authenticator.authenticate(bearer(unknownId));
    await authenticator.authenticate(bearer(real.plaintext), { bypassCache: true });
    await authenticator.authenticate(bearer(unknownId), { bypassCache: true });
    expect(asked).toHaveLength(4);
  });
});
