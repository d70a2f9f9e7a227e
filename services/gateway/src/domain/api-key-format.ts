import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Keys on the wire: `mk_live_<key id>_<secret><checksum>`, all base62.
 * - key id (12 chars, ~71 bits): public, finds the row with one indexed lookup, safe to log.
 * - secret (32 chars, ~190 bits): never stored, only its SHA-256.
 * - checksum (6 chars): CRC32 of everything before it, so a typo or a made-up key is refused
 *   without a database query and a secret scanner can recognise a leaked key.
 */
export const KEY_PREFIX = 'mk_live_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_ID_LENGTH = 12;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(
  `^${KEY_PREFIX}([0-9A-Za-z]{${KEY_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

export interface ParsedKey {
  keyId: string;
  secret: string;
}

export interface GeneratedKey extends ParsedKey {
  /** The full key, shown to its owner once. */
  plaintext: string;
  secretHash: Buffer;
}

/** randomInt draws without modulo bias, so every character carries log2(62) bits. */
const randomBase62 = (length: number) => Array.from({ length }, () => ALPHABET[randomInt(62)]).join('');

function base62Checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** The wire form of a key id and secret, checksum included. */
export function keyWithParts(keyId: string, secret: string): string {
  const body = `${KEY_PREFIX}${keyId}_${secret}`;
  return `${body}${base62Checksum(body)}`;
}

export function generateKey(): GeneratedKey {
  const keyId = randomBase62(KEY_ID_LENGTH);
  const secret = randomBase62(SECRET_LENGTH);
  return { keyId, secret, plaintext: keyWithParts(keyId, secret), secretHash: hashSecret(secret) };
}

/** The key's parts when it is well-formed and its checksum holds; undefined otherwise. */
export function parseKey(candidate: string): ParsedKey | undefined {
  const match = KEY_PATTERN.exec(candidate);
  if (!match) return undefined;
  const [, keyId, secret, checksum] = match as unknown as [string, string, string, string];
  if (base62Checksum(`${KEY_PREFIX}${keyId}_${secret}`) !== checksum) return undefined;
  return { keyId, secret };
}

/** `Authorization: Bearer <key>` → the key's parts, or undefined for any other shape. */
export function keyFromAuthorization(header: string | undefined): ParsedKey | undefined {
  if (!header || header.length > 200) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? parseKey(match[1]!) : undefined;
}
