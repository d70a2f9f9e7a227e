import { randomUUID } from 'node:crypto';
import { signIdentity } from '@mailer/shared';
import { TEST_SIGNING_SECRET } from './service-test-env';

/**
 * The identity header the gateway would send with this exact request: signed for its method, the
 * path and query of `url` as fetch sends them, and its body (string bodies as UTF-8).
 */
export function signedIdentityFor(accountId: number, request: { method?: string; url: string; body?: string | Buffer | null }): string {
  const { pathname, search } = new URL(request.url);
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  return signIdentity({ accountId, requestId: randomUUID() }, { method: request.method ?? 'GET', path: `${pathname}${search}`, body }, TEST_SIGNING_SECRET);
}
