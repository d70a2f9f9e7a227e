import { example, having, valueAt, type Invocation } from './cli-invocation';

/** The usage lines of the automation (workflows), contacts and webhooks CLIs, as printed. */
const LINE = {
  workflowsImport: 'workflows import FILE --account ID',
  workflowsList: 'workflows list --account ID',
  workflowsLog: 'workflows log --account ID (--email EMAIL | --contact ID)',
  contactsUntag: 'contacts untag --account ID --id CONTACT_ID --tag NAME',
  webhooksCreate:
    'webhooks create --account ID --url URL --events TYPE[,TYPE...] [--description D] [--disable]',
  webhooksList: 'webhooks list --account ID',
  webhooksUpdate:
    'webhooks update --id ID [--url URL] [--events TYPE,...] [--description D] [--enable|--disable]',
  webhooksRotateSecret: 'webhooks rotate-secret --id ID',
  webhooksDelete: 'webhooks delete --id ID',
  webhooksDeliveries: 'webhooks deliveries --id ID [--limit N]',
  webhooksResend: 'webhooks resend --id ID --delivery ID',
};

export const WORKFLOW_INVOCATIONS: Invocation[] = [
  {
    line: LINE.workflowsImport,
    args: (made) => [
      'workflows',
      'import',
      example('workflows', 'welcome-series.json'),
      '--account',
      made('account'),
    ],
    prints: () => ({ data: [having({ trigger: 'signup', replaced: false })] }),
  },
  {
    line: LINE.workflowsList,
    args: (made) => ['workflows', 'list', '--account', made('account')],
    prints: () => ({ data: [having({ name: 'Welcome series', trigger: { event: 'signup' } })] }),
  },
  // No event reached automation here: each history is empty, and asking for it is what is tried.
  {
    line: LINE.workflowsLog,
    args: (made) => ['workflows', 'log', '--account', made('account'), '--email', 'operator@example.test'],
    prints: () => ({ data: [] }),
  },
  {
    line: LINE.workflowsLog,
    args: (made) => ['workflows', 'log', '--account', made('account'), '--contact', '1'],
    prints: () => ({ data: [] }),
  },
];

// Contacts come from the REST API or events, never from a CLI: there is none to untag here.
export const CONTACT_INVOCATIONS: Invocation[] = [
  {
    line: LINE.contactsUntag,
    args: (made) => ['contacts', 'untag', '--account', made('account'), '--id', '1', '--tag', 'vip'],
    refusal: /^contact not found$/m,
  },
];

export const WEBHOOK_INVOCATIONS: Invocation[] = [
  {
    line: LINE.webhooksCreate,
    args: (made, { hookUrl }) => [
      'webhooks',
      'create',
      '--account',
      made('account'),
      '--url',
      hookUrl,
      '--events',
      'contact.created,email.sent',
      '--description',
      'Operator test',
      '--disable',
    ],
    prints: () =>
      having({
        event_types: ['contact.created', 'email.sent'],
        description: 'Operator test',
        enabled: false,
        secret: expect.stringMatching(/^whsec_/),
      }),
    keeps: (json) => ({ webhook: valueAt(json, 'id') }),
  },
  {
    line: LINE.webhooksList,
    args: (made) => ['webhooks', 'list', '--account', made('account')],
    prints: (made) => [having({ id: Number(made('webhook')), status: 'disabled' })],
  },
  {
    line: LINE.webhooksUpdate,
    args: (made, { hookUrl }) => [
      'webhooks',
      'update',
      '--id',
      made('webhook'),
      '--url',
      `${hookUrl}/moved`,
      '--events',
      'email.failed',
      '--description',
      'Moved',
      '--enable',
    ],
    prints: () => having({ event_types: ['email.failed'], description: 'Moved', enabled: true }),
  },
  {
    line: LINE.webhooksUpdate,
    args: (made) => ['webhooks', 'update', '--id', made('webhook'), '--disable'],
    prints: () => having({ enabled: false, status: 'disabled' }),
  },
  {
    line: LINE.webhooksRotateSecret,
    args: (made) => ['webhooks', 'rotate-secret', '--id', made('webhook')],
    prints: () =>
      having({ secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) }),
  },
  {
    line: LINE.webhooksDeliveries,
    args: (made) => ['webhooks', 'deliveries', '--id', made('webhook'), '--limit', '5'],
    prints: () => [],
  },
  // Deliveries are made by the running webhooks service only: none exists to resend here.
  {
    line: LINE.webhooksResend,
    args: (made) => ['webhooks', 'resend', '--id', made('webhook'), '--delivery', '1'],
    refusal: /^delivery not found$/m,
  },
  {
    line: LINE.webhooksDelete,
    args: (made) => ['webhooks', 'delete', '--id', made('webhook')],
    prints: (made) => ({ deleted: Number(made('webhook')) }),
  },
];
