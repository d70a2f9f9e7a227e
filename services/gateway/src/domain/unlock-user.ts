import { AppError, type Pool, type Redis } from '@mailer/shared';
import { SignInThrottle } from '../data-access/sign-in-throttle';
import { findUserByEmail } from '../data-access/users.repository';
import { normaliseEmail } from './sign-in-identity';

/**
 * The operator's way back in for a user locked by failed sign-ins (many addresses guessing):
 * the user's failure count is forgotten at once, on every gateway (it lives in Redis). Addresses
 * that guessed stay limited until their own window ends.
 */
export async function unlockUser(deps: { pool: Pool; redis: () => Promise<Redis> }, email: string) {
  const user = await findUserByEmail(deps.pool, normaliseEmail(email));
  if (!user) throw new AppError('USER.NOT_FOUND', 'no user has this email');
  const wasLocked = await SignInThrottle.unlock(await deps.redis(), user.email);
  return { id: user.id, email: user.email, failures_cleared: wasLocked };
}
