import { hash } from '@node-rs/argon2';
import { AppError, isUniqueViolation, type Pool } from '@mailer/shared';
import { findAccount } from '../data-access/accounts.repository';
import { insertUser, USERS_EMAIL_CONSTRAINT, type User } from '../data-access/users.repository';
import { accountNotFound, GatewayErrorCodes, invalidInput } from './gateway.errors';
import { normaliseEmail } from './sign-in-identity';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

/** A user of the settings screen; the password is kept only as an Argon2id hash (memory-hard). */
export async function createUser(pool: Pool, input: { accountId: number; email: string; password: string }): Promise<User> {
  // Stored in the one sign-in form, so the throttle and the lookup meet the same row.
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254 || email.includes('\u0000')) throw invalidInput('email: is not a valid email address');
  if (input.password.length < MIN_PASSWORD_LENGTH) throw invalidInput(`password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (!(await findAccount(pool, input.accountId))) throw accountNotFound();
  const passwordHash = await hash(input.password);
  try {
    return await insertUser(pool, { accountId: input.accountId, email, passwordHash });
  } catch (error) {
    if (isUniqueViolation(error, USERS_EMAIL_CONSTRAINT)) {
      throw new AppError(GatewayErrorCodes.EMAIL_TAKEN, 'email: is already taken');
    }
    throw error;
  }
}
