import { listAccounts, listUsers } from '../data-access/operator.repository';
import { setAccountPlan, setUserPassword } from '../domain/operate-accounts';
import { id, required, UsageError, type CommandSpec } from './admin-commands';

const optionalId = (value: string | undefined) => (value === undefined ? undefined : id({ account: value }, 'account'));

/** The operator's view and upkeep of accounts and users, beside creating them. */
export const operatorCommands: Record<string, CommandSpec> = {
  'accounts list': {
    options: [],
    run: async ({ pool }) => listAccounts(pool),
  },
  'accounts set-plan': {
    options: ['account', 'plan'],
    run: async ({ pool }, o) => {
      const accountId = id(o, 'account');
      const plan = required(o, 'plan');
      if (plan !== 'free' && plan !== 'pro') throw new UsageError('--plan must be free or pro');
      await setAccountPlan(pool, accountId, plan);
      return (await listAccounts(pool)).find((account) => account.id === accountId);
    },
  },
  'users list': {
    options: ['account'],
    run: async ({ pool }, o) => listUsers(pool, optionalId(o.account)),
  },
  'users set-password': {
    options: ['email', 'password'],
    run: async ({ pool }, o) => ({
      ...(await setUserPassword(pool, required(o, 'email'), required(o, 'password'))),
      note: 'password changed; the user is signed out everywhere',
    }),
  },
};
