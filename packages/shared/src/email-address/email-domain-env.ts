import type { Logger } from 'pino';
import { z } from 'zod';
import { envFields } from '../config/env-fields';
import type { Redis } from '../redis/redis-client';
import { createDomainVerdictCache } from './domain-verdict-cache';
import { createEmailDomainValidator, type DomainCheckObservation, type EmailDomainValidator } from './email-domain-verdict';
import { createMailDomainDns } from './mail-domain-dns';

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

/** The variables of the email-domain verdict: every service that judges an address reads the same ones. */
export const emailDomainEnv = {
  /** `host:port` resolvers for domain validation; empty means the system's. */
  DNS_SERVERS: commaList.pipe(
    z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-zA-Z.:-]+)(:\d{1,5})?$/, 'must be host or host:port')),
  ),
  DNS_TIMEOUT_MS: envFields.positiveInt(3000),
  /** Domains the operator accepts although the disposable list names them. */
  DISPOSABLE_ALLOWLIST: commaList.transform((domains) => domains.map((domain) => domain.toLowerCase())),
};

export interface EmailDomainConfig {
  DNS_SERVERS: string[];
  DNS_TIMEOUT_MS: number;
  DISPOSABLE_ALLOWLIST: string[];
}

/** The verdict as a service's composition root builds it: DNS per the config, verdicts cached in Redis. */
export function emailDomainValidatorFor(
  config: EmailDomainConfig,
  redis: Redis,
  logger: Logger,
  observe?: (observation: DomainCheckObservation) => void,
): EmailDomainValidator {
  return createEmailDomainValidator({
    dns: createMailDomainDns({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS }),
    cache: createDomainVerdictCache(redis, logger),
    disposableAllowList: config.DISPOSABLE_ALLOWLIST,
    ...(observe ? { observe } : {}),
  });
}
