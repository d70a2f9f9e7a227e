import { z } from 'zod';
import { brokerEnv, commonEnvSchema, envFields, loadConfig, postgresEnv, redisEnv } from '@mailer/shared';

/** `a, b` -> ['a', 'b']; empty or absent -> []. */
const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

export const contactsEnvSchema = commonEnvSchema.extend({
  PORT: envFields.port(3010),
  ...postgresEnv,
  ...brokerEnv,
  ...redisEnv,
  /** `host:port` resolvers for domain validation; empty means the system's. */
  DNS_SERVERS: commaList.pipe(
    z.array(
      z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-zA-Z.:-]+)(:\d{1,5})?$/, 'must be host or host:port'),
    ),
  ),
  DNS_TIMEOUT_MS: envFields.positiveInt(3000),
  /** Domains the operator accepts although the disposable list names them. */
  DISPOSABLE_ALLOWLIST: commaList.transform((domains) => domains.map((domain) => domain.toLowerCase())),
  /** How often the outbox relay looks for unpublished rows when idle. */
  OUTBOX_POLL_MS: envFields.positiveInt(100),
});

export type ContactsConfig = z.output<typeof contactsEnvSchema>;

export const loadContactsConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(contactsEnvSchema, env);
