import type { DnsRepository } from '../data-access/dns.repository';
import type { DomainCacheRepository } from '../data-access/domain-cache.repository';
import { emailDomainRejected, invalidContact } from './contact.errors';
import { isDisposableDomain } from './disposable-domains';
import { emailDomain } from './email-format';

export interface EmailDomainValidator {
  /** Resolves when `email` may be saved; throws the 422 error saying why not. */
  validate(email: string): Promise<void>;
}

/**
 * The checks before a new address is saved, cheapest first: format, the disposable list (no DNS
 * query at all), then MX or A/AAAA, cached. A timeout is never cached: the next try asks again.
 */
export function createEmailDomainValidator(deps: {
  dns: DnsRepository;
  cache: DomainCacheRepository;
  disposableAllowList: readonly string[];
}): EmailDomainValidator {
  return {
    async validate(email) {
      const domain = emailDomain(email);
      if (!domain) throw invalidContact(['email is invalid']);
      if (isDisposableDomain(domain, deps.disposableAllowList)) throw emailDomainRejected('disposable');
      let verdict = await deps.cache.get(domain);
      if (!verdict) {
        const answer = await deps.dns.lookupMailDomain(domain);
        if (answer === 'dns_timeout') throw emailDomainRejected('dns_timeout');
        verdict = answer;
        await deps.cache.set(domain, verdict);
      }
      if (verdict === 'no_mx') throw emailDomainRejected('no_mx');
    },
  };
}
