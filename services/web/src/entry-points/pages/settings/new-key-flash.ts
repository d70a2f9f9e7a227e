import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Carries a just-created key from the POST to the page that shows it (post/redirect/get, so a
 * reload never re-creates or re-shows a key) without storing the plaintext anywhere on the server:
 * an AES-256-GCM sealed cookie, bound to the session, read once and cleared.
 */
export class NewKeyFlash {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'mailer-app', 'new-key-flash', 32));
  }

  seal(value: { plaintext: string; name: string }, sessionToken: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(sessionToken));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(sealed: string, sessionToken: string): { plaintext: string; name: string } | undefined {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12)).setAAD(Buffer.from(sessionToken));
      decipher.setAuthTag(raw.subarray(12, 28));
      const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      const value = JSON.parse(text) as { plaintext?: unknown; name?: unknown };
      return typeof value.plaintext === 'string' && typeof value.name === 'string'
        ? { plaintext: value.plaintext, name: value.name }
        : undefined;
    } catch {
      return undefined;
    }
  }
}
