import { having, holding, valueAt, type Invocation } from './cli-invocation';

/** The gateway's usage lines (accounts, users, keys) and quickstart's, as printed. */
const LINE = {
  accountsCreate: 'accounts create --name N --plan free|pro',
  accountsList: 'accounts list',
  accountsSetPlan: 'accounts set-plan --account ID --plan free|pro',
  usersCreate: 'users create --account ID --email E --password P',
  usersList: 'users list [--account ID]',
  usersSetPassword: 'users set-password --email E --password P',
  usersUnlock: 'users unlock --email E',
  keysCreate: 'keys create --account ID --name N [--expires YYYY-MM-DD]',
  keysList: 'keys list --account ID',
  keysRevoke: 'keys revoke --id ID',
  quickstart: 'quickstart --email YOUR_ADDRESS [--name COMPANY] [--first-name NAME]',
};

const OPERATOR = 'operator@example.test';

/** The account every other invocation works on, its user and keys: run first, in this order. */
export const ACCOUNT_INVOCATIONS: Invocation[] = [
  {
    line: LINE.accountsCreate,
    args: () => ['accounts', 'create', '--name', 'Operator test', '--plan', 'pro'],
    prints: () => having({ name: 'Operator test', plan: 'pro', api_access: true }),
    keeps: (json) => ({ account: valueAt(json, 'id') }),
  },
  {
    line: LINE.accountsCreate,
    args: () => ['accounts', 'create', '--name', 'Free test', '--plan', 'free'],
    prints: () => having({ name: 'Free test', plan: 'free' }),
    keeps: (json) => ({ otherAccount: valueAt(json, 'id') }),
  },
  {
    line: LINE.accountsList,
    args: () => ['accounts', 'list'],
    prints: (made) => holding({ id: Number(made('otherAccount')), plan: 'free' }),
  },
  {
    line: LINE.accountsSetPlan,
    args: (made) => ['accounts', 'set-plan', '--account', made('otherAccount'), '--plan', 'pro'],
    prints: (made) => having({ id: Number(made('otherAccount')), plan: 'pro' }),
  },
  {
    line: LINE.accountsSetPlan,
    args: (made) => ['accounts', 'set-plan', '--account', made('otherAccount'), '--plan', 'free'],
    prints: (made) => having({ id: Number(made('otherAccount')), plan: 'free' }),
  },
  {
    line: LINE.usersCreate,
    args: (made) => [
      'users',
      'create',
      '--account',
      made('account'),
      '--email',
      OPERATOR,
      '--password',
      'a long enough passphrase',
    ],
    prints: (made) => having({ account_id: Number(made('account')), email: OPERATOR }),
  },
  {
    line: LINE.usersList,
    args: (made) => ['users', 'list', '--account', made('account')],
    prints: () => [having({ email: OPERATOR })],
  },
  {
    line: LINE.usersList,
    args: () => ['users', 'list'],
    prints: (made) => holding({ account_id: Number(made('account')), email: OPERATOR }),
  },
  {
    line: LINE.usersSetPassword,
    args: () => ['users', 'set-password', '--email', OPERATOR, '--password', 'another long passphrase'],
    prints: () => having({ note: expect.stringMatching(/password changed/) }),
  },
  {
    line: LINE.usersUnlock,
    args: () => ['users', 'unlock', '--email', OPERATOR],
    prints: () => having({ email: OPERATOR, failures_cleared: false }),
  },
  {
    line: LINE.keysCreate,
    args: (made) => [
      'keys',
      'create',
      '--account',
      made('account'),
      '--name',
      'ci',
      '--expires',
      '2099-12-31',
    ],
    prints: () => having({ name: 'ci', expires_on: '2099-12-31', status: 'active', key: expect.any(String) }),
    keeps: (json) => ({ expiringKey: valueAt(json, 'id') }),
  },
  {
    line: LINE.keysCreate,
    args: (made) => ['keys', 'create', '--account', made('account'), '--name', 'spare'],
    prints: () => having({ name: 'spare', expires_on: null }),
    keeps: (json) => ({ spareKey: valueAt(json, 'id') }),
  },
  {
    line: LINE.keysList,
    args: (made) => ['keys', 'list', '--account', made('account')],
    prints: () => [having({ name: 'spare' }), having({ name: 'ci' })], // newest first
  },
  {
    line: LINE.keysRevoke,
    args: (made) => ['keys', 'revoke', '--id', made('spareKey')],
    prints: () => having({ name: 'spare', status: 'revoked' }),
  },
];

/** `quickstart`: an account of its own, so it runs beside the service invocations. */
export const QUICKSTART_INVOCATIONS: Invocation[] = [
  {
    line: LINE.quickstart,
    args: () => [
      'quickstart',
      '--email',
      'owner@example.test',
      '--name',
      'Quick start',
      '--first-name',
      'Ada',
    ],
    prints: () =>
      having({
        account: having({ name: 'Quick start', plan: 'pro' }),
        sign_in: having({ email: 'owner@example.test' }),
        workflows: expect.arrayContaining([having({ trigger: 'signup' })]),
        try_it: expect.stringContaining('"first_name":"Ada"'),
      }),
  },
];
