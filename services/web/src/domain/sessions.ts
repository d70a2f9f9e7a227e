import { createHash, randomBytes } from 'node:crypto';
import type { Pool } from '@mailer/shared';
import type { GatewayClient, GatewayUser } from '../data-access/gateway.client';
import { deleteSession, findSession, insertSession, keepOnlySession, type SessionRecord } from '../data-access/sessions.repository';

export type { SessionRecord };

const hashToken = (token: string) => createHash('sha256').update(token).digest();
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The app's sessions: a random token in the cookie, only its SHA-256 stored; a fresh token at every
 * sign-in (no fixation) and a synchronizer CSRF token per session.
 */
export class Sessions {
  constructor(
    private readonly pool: Pool,
    private readonly gateway: GatewayClient,
    private readonly ttlSeconds: number,
  ) {}

  get lifetimeSeconds(): number {
    return this.ttlSeconds;
  }

  async open(user: GatewayUser): Promise<{ token: string; session: SessionRecord }> {
    const token = randomBytes(32).toString('base64url');
    const session: SessionRecord = {
      userId: user.id,
      accountId: user.account_id,
      email: user.email,
      credentialsStamp: user.credentials_stamp,
      csrfToken: randomBytes(32).toString('base64url'),
    };
    await insertSession(this.pool, hashToken(token), session, this.ttlSeconds);
    return { token, session };
  }

  /**
   * The session a cookie names, while it lasts and its user still signs in with the same password:
   * an operator's `users set-password`, or a deleted user, ends it at the next request.
   */
  async resume(token: string, requestId: string): Promise<SessionRecord | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const session = await findSession(this.pool, hashToken(token));
    if (!session) return undefined;
    const user = await this.gateway.user({ accountId: session.accountId, requestId }, session.userId);
    if (!user || user.credentials_stamp !== session.credentialsStamp || user.account_id !== session.accountId) {
      await deleteSession(this.pool, hashToken(token));
      return undefined;
    }
    return { ...session, email: user.email };
  }

  async end(token: string): Promise<void> {
    if (TOKEN_SHAPE.test(token)) await deleteSession(this.pool, hashToken(token));
  }

  /** The password changed in this session: it stays, every other session of the user ends. */
  async passwordChanged(token: string, session: SessionRecord, credentialsStamp: string): Promise<void> {
    await keepOnlySession(this.pool, hashToken(token), session.userId, credentialsStamp);
  }
}
