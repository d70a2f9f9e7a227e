import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64. */
export const newEndpointSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The three Standard Webhooks headers for one attempt. Every secret signs (the current one and,
 * during a rotation's overlap, the previous one), space-separated, so a receiver holding either
 * verifies; the timestamp is the attempt's, so a retry a day later is still fresh.
 */
export function signatureHeaders(secrets: string[], messageId: string, at: Date, body: string): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
