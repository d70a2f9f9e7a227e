import type { Pool } from '@mailer/shared';
import { AppError } from '@mailer/shared';
import { insertAccount, planExists, type Account } from '../data-access/accounts.repository';
import { GatewayErrorCodes, invalidInput } from './gateway.errors';

export async function createAccount(pool: Pool, input: { name: string; plan: string }): Promise<Account> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw invalidInput('name: must be 1 to 200 characters');
  if (!(await planExists(pool, input.plan))) {
    throw new AppError(GatewayErrorCodes.UNKNOWN_PLAN, `plan: unknown plan "${input.plan}"`);
  }
  return insertAccount(pool, { name, plan: input.plan });
}
