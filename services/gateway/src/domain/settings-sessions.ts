import { createHash, randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { AppError, CommonErrorCodes, type Pool } from '@mailer/shared';
import { deleteSession, findSession, insertSession, type SessionRecord } from '../data-access/sessions.repository';
import { findUserByEmail } from '../data-access/users.repository';

export const SESSION_TTL_SECONDS = 12 * 3600;

const hashToken = (token: string) => createHash('sha256').update(token).digest();

// Verifying against this when the email is unknown makes both failures take the same time.
const DECOY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$1FxikHdZMoihP0pwTYR7ag$Me9kep57leLnAGMrvZcSpg7yyRxJL6wEwakNSFVwRD0';

export const invalidCredentials = () => new AppError(CommonErrorCodes.UNAUTHORIZED, 'email or password is incorrect');

/** Checks the password (Argon2id) and opens a new session: a fresh token, so no session fixation. */
export async function signIn(pool: Pool, email: string, password: string): Promise<{ token: string; session: SessionRecord }> {
  const user = await findUserByEmail(pool, email.trim());
  const matches = await verify(user?.passwordHash ?? DECOY_HASH, password).catch(() => false);
  if (!user || !matches) throw invalidCredentials();
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  await insertSession(pool, { tokenHash: hashToken(token), userId: user.id, csrfToken, ttlSeconds: SESSION_TTL_SECONDS });
  return { token, session: { userId: user.id, accountId: user.accountId, email: user.email, csrfToken } };
}

export async function sessionFor(pool: Pool, token: string): Promise<SessionRecord | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return findSession(pool, hashToken(token));
}

export async function signOut(pool: Pool, token: string): Promise<void> {
  await deleteSession(pool, hashToken(token));
}
