import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { AppError, CommonErrorCodes, type Pool } from '@mailer/shared';
import { updatePasswordHash } from '../data-access/operator.repository';
import { findUserByEmail, findUserById, type UserWithHash } from '../data-access/users.repository';
import { MIN_PASSWORD_LENGTH } from './create-user';
import { invalidInput } from './gateway.errors';

const invalidCredentials = () => new AppError(CommonErrorCodes.UNAUTHORIZED, 'email or password is incorrect');

// Verifying against this when the email is unknown makes both failures take the same time.
const DECOY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$1FxikHdZMoihP0pwTYR7ag$Me9kep57leLnAGMrvZcSpg7yyRxJL6wEwakNSFVwRD0';

/**
 * What the account app keeps of a password: a digest of its (salted) hash. Any new password, even
 * the same one set again, gets a new salt and so a new stamp, which ends every session made before.
 */
export const credentialsStamp = (passwordHash: string) => createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);

/** The user whose address and password these are (Argon2id); `normalisedEmail` from `normaliseEmail`. */
export async function verifyCredentials(pool: Pool, normalisedEmail: string, password: string): Promise<UserWithHash> {
  const user = await findUserByEmail(pool, normalisedEmail);
  const matches = await verify(user?.passwordHash ?? DECOY_HASH, password).catch(() => false);
  if (!user || !matches) throw invalidCredentials();
  return user;
}

/** The user, when it belongs to `accountId` (another account's user is simply not found). */
export async function userOfAccount(pool: Pool, accountId: number, userId: number): Promise<UserWithHash | undefined> {
  const user = await findUserById(pool, userId);
  return user && user.accountId === accountId ? user : undefined;
}

/** A signed-in user's own change: the current password must match; every gateway session ends. */
export async function changeOwnPassword(
  pool: Pool,
  user: UserWithHash,
  input: { currentPassword: string; newPassword: string },
): Promise<UserWithHash> {
  if (!(await verify(user.passwordHash, input.currentPassword).catch(() => false))) throw invalidCredentials();
  if (input.newPassword.length < MIN_PASSWORD_LENGTH) throw invalidInput(`new password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const passwordHash = await hash(input.newPassword);
  await updatePasswordHash(pool, user.id, passwordHash);
  return { ...user, passwordHash };
}
