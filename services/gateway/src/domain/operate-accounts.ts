import { hash } from '@node-rs/argon2';
import { AppError, type Pool } from '@mailer/shared';
import { planExists } from '../data-access/accounts.repository';
import { updateAccountPlan, updatePasswordHash } from '../data-access/operator.repository';
import { findUserByEmail } from '../data-access/users.repository';
import { accountNotFound, GatewayErrorCodes, invalidInput } from './gateway.errors';
import { MIN_PASSWORD_LENGTH } from './create-user';
import { normaliseEmail } from './sign-in-identity';

/** Moves an account to another plan (API access follows the plan at once: keys are checked per request). */
export async function setAccountPlan(pool: Pool, accountId: number, plan: string): Promise<void> {
  if (!(await planExists(pool, plan))) throw new AppError(GatewayErrorCodes.UNKNOWN_PLAN, `plan: no plan named "${plan}"`);
  if (!(await updateAccountPlan(pool, accountId, plan))) throw accountNotFound();
}

/** The operator's password reset: a new password for a user, whose open sessions all end. */
export async function setUserPassword(pool: Pool, email: string, password: string): Promise<{ id: number; email: string }> {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidInput(`password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const user = await findUserByEmail(pool, normaliseEmail(email));
  if (!user) throw new AppError('USER.NOT_FOUND', 'no user has this email');
  await updatePasswordHash(pool, user.id, await hash(password));
  return { id: user.id, email: user.email };
}
