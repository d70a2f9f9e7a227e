import type { DnsRepository } from '../data-access/dns.repository';
import type { DomainCacheRepository } from '../data-access/domain-cache.repository';
import { emailDomainRejected, invalidContact } from './contact.errors';
import { isDisposableDomain } from './disposable-domains';
import { emailDomain } from './email-format';

/** One domain check's result, as observed by metrics. `seconds`: the DNS round trip, on a cache miss. */
export interface DomainCheckObservation {
  outcome: 'ok' | 'no_mx' | 'dns_timeout' | 'disposable';
  source: 'dns' | 'cache' | 'list';
  seconds?: number;
}

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
  observe?: (observation: DomainCheckObservation) => void;
}): EmailDomainValidator {
  const observe = deps.observe ?? (() => undefined);
  return {
    async validate(email) {
      const domain = emailDomain(email);
      if (!domain) throw invalidContact(['email is invalid']);
      if (isDisposableDomain(domain, deps.disposableAllowList)) {
        observe({ outcome: 'disposable', source: 'list' });
        throw emailDomainRejected('disposable');
      }
      let verdict = await deps.cache.get(domain);
      if (verdict) observe({ outcome: verdict === 'no_mx' ? 'no_mx' : 'ok', source: 'cache' });
      else {
        const started = performance.now();
        const answer = await deps.dns.lookupMailDomain(domain);
        const seconds = (performance.now() - started) / 1000;
        observe({ outcome: answer === 'deliverable' ? 'ok' : answer, source: 'dns', seconds });
        if (answer === 'dns_timeout') throw emailDomainRejected('dns_timeout');
        verdict = answer;
        await deps.cache.set(domain, verdict);
      }
      if (verdict === 'no_mx') throw emailDomainRejected('no_mx');
    },
  };
}
