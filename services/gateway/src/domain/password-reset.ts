import { createHash, randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { AppError, type Pool } from '@mailer/shared';
import { findUserByEmail, findUserById, type UserWithHash } from '../data-access/users.repository';
import { redeemResetToken, resetTokenState, storeResetToken } from '../data-access/password-resets.repository';
import { MIN_PASSWORD_LENGTH } from './create-user';
import { GatewayErrorCodes, invalidInput } from './gateway.errors';

/** How long an emailed link works. */
export const RESET_TOKEN_LIFETIME_SECONDS = 3600;

// 32 random bytes, base64url: 43 characters. Anything else is not a token we made.
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const digest = (token: string) => createHash('sha256').update(token).digest();

const unusable = (state: 'unknown' | 'expired' | 'used') =>
  new AppError(GatewayErrorCodes.RESET_TOKEN_UNUSABLE, `reset link ${state === 'unknown' ? 'is not valid' : `was ${state === 'used' ? 'already used' : 'expired'}`}`, { state });

/**
 * A new reset token for the user with this address, or undefined when there is none (the caller
 * answers the same either way). Only its SHA-256 is stored; older tokens of the user end.
 */
export async function requestPasswordReset(pool: Pool, normalisedEmail: string): Promise<{ token: string; user: UserWithHash } | undefined> {
  const user = await findUserByEmail(pool, normalisedEmail);
  if (!user) return undefined;
  const token = randomBytes(32).toString('base64url');
  await storeResetToken(pool, user.id, digest(token), RESET_TOKEN_LIFETIME_SECONDS);
  return { token, user };
}

/** Whether the link's token can still set a password; never spends it. */
export async function checkResetToken(pool: Pool, token: string): Promise<void> {
  const found = TOKEN.test(token) ? await resetTokenState(pool, digest(token)) : { state: 'unknown' as const };
  if (found.state !== 'usable') throw unusable(found.state);
}

/**
 * Sets a new password with a usable token and spends it. The new password hash changes the
 * credentials stamp, so every session of the user (in the account app) ends at its next request.
 */
export async function redeemPasswordReset(pool: Pool, token: string, newPassword: string): Promise<UserWithHash> {
  if (newPassword.length < MIN_PASSWORD_LENGTH) throw invalidInput(`new password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
  await checkResetToken(pool, token);
  const passwordHash = await hash(newPassword);
  const userId = await redeemResetToken(pool, digest(token), passwordHash);
  // Spent by a parallel redemption between the check and here: the same answer as a used link.
  if (userId === undefined) throw unusable('used');
  const user = await findUserById(pool, userId);
  if (!user) throw unusable('unknown');
  return user;
}
