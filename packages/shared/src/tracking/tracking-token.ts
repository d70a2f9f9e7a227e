import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Which email a tracking hit belongs to. A campaign email names its campaign; a workflow email its
 * workflow and step. Carried inside the token, encrypted: a link never shows a contact's id.
 */
export interface TrackedEmail {
  accountId: number;
  contactId: number;
  campaignId?: number | undefined;
  workflowId?: number | undefined;
  stepId?: string | undefined;
  /** When the email was rendered for sending (seconds since the epoch): link scanners hit within seconds of it. */
  sentAt: number;
}

export type TrackingTarget =
  | { kind: 'open'; email: TrackedEmail }
  /** `link` is the link's position in the email (0-based), `url` where it points. */
  | { kind: 'click'; email: TrackedEmail; url: string; link: number };

interface TrackingKeys {
  encryption: Buffer;
  mac: Buffer;
}

const VERSION = 1;
const IV_BYTES = 16;
const MAC_BYTES = 16;
const MAX_TOKEN_CHARS = 8192;

const keyCache = new Map<string, TrackingKeys>();

/** Two keys from the one secret (HKDF): AES-256-CTR for opacity, HMAC-SHA-256 for authenticity. */
function keysOf(secret: string): TrackingKeys {
  let keys = keyCache.get(secret);
  if (!keys) {
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'mailer-tracking', info, 32));
    keys = { encryption: derive('encryption-v1'), mac: derive('mac-v1') };
    keyCache.set(secret, keys);
  }
  return keys;
}

/** TRACKING_SECRET, or a key derived from the internal signing secret (as unsubscribe links do). */
export const trackingSecret = (explicit: string | undefined, signingSecret: string) =>
  explicit ?? createHmac('sha256', signingSecret).update('mailer-tracking-link-v1').digest('base64url');

type Packed = [kind: 'o' | 'c', account: number, contact: number, campaign: number, workflow: number, step: string, sentAt: number, link: number, url: string];

const pack = (target: TrackingTarget): Packed => {
  const { email } = target;
  return [
    target.kind === 'open' ? 'o' : 'c',
    email.accountId,
    email.contactId,
    email.campaignId ?? 0,
    email.workflowId ?? 0,
    email.stepId ?? '',
    email.sentAt,
    target.kind === 'click' ? target.link : 0,
    target.kind === 'click' ? target.url : '',
  ];
};

const positiveId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const idOrNone = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function unpack(value: unknown): TrackingTarget | undefined {
  if (!Array.isArray(value) || value.length !== 9) return undefined;
  const [kind, account, contact, campaign, workflow, step, sentAt, link, url] = value as unknown[];
  if ((kind !== 'o' && kind !== 'c') || !positiveId(account) || !positiveId(contact) || !idOrNone(campaign) || !idOrNone(workflow)) return undefined;
  if (typeof step !== 'string' || !idOrNone(sentAt) || !idOrNone(link) || typeof url !== 'string') return undefined;
  if ((campaign === 0) === (workflow === 0)) return undefined;
  const email: TrackedEmail = {
    accountId: account,
    contactId: contact,
    sentAt,
    ...(campaign ? { campaignId: campaign } : { workflowId: workflow, stepId: step }),
  };
  if (kind === 'o') return { kind: 'open', email };
  if (!/^https?:\/\//i.test(url)) return undefined;
  return { kind: 'click', email, url, link };
}

/**
 * An opaque, authenticated token for a tracking URL: version, IV, AES-256-CTR ciphertext of the
 * packed target, then a truncated HMAC over all of it (encrypt-then-MAC), base64url. The click's
 * destination is inside the MAC, so a token cannot be made to redirect anywhere else.
 */
export function signTrackingToken(target: TrackingTarget, secret: string): string {
  const keys = keysOf(secret);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-ctr', keys.encryption, iv);
  const body = Buffer.concat([Buffer.from([VERSION]), iv, cipher.update(JSON.stringify(pack(target)), 'utf8'), cipher.final()]);
  const mac = createHmac('sha256', keys.mac).update(body).digest().subarray(0, MAC_BYTES);
  return Buffer.concat([body, mac]).toString('base64url');
}

/** The target of a token this secret signed, or undefined for anything forged, altered or malformed. */
export function verifyTrackingToken(token: string, secret: string): TrackingTarget | undefined {
  if (token.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  // A decoder skips a dangling last character: only the one spelling the signer wrote is the token.
  if (raw.toString('base64url') !== token) return undefined;
  if (raw.length < 1 + IV_BYTES + MAC_BYTES + 2 || raw[0] !== VERSION) return undefined;
  const keys = keysOf(secret);
  const body = raw.subarray(0, raw.length - MAC_BYTES);
  const expected = createHmac('sha256', keys.mac).update(body).digest().subarray(0, MAC_BYTES);
  if (!timingSafeEqual(expected, raw.subarray(raw.length - MAC_BYTES))) return undefined;
  const decipher = createDecipheriv('aes-256-ctr', keys.encryption, body.subarray(1, 1 + IV_BYTES));
  const plain = Buffer.concat([decipher.update(body.subarray(1 + IV_BYTES)), decipher.final()]).toString('utf8');
  try {
    return unpack(JSON.parse(plain));
  } catch {
    return undefined;
  }
}

/** `/t/c/<token>` (click) or `/t/o/<token>` (open) on the public address. */
export const trackingUrl = (publicBaseUrl: string, kind: TrackingTarget['kind'], token: string) =>
  `${publicBaseUrl.replace(/\/+$/, '')}/t/${kind === 'open' ? 'o' : 'c'}/${token}`;
