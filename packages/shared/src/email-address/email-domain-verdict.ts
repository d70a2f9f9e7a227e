import { emailDomainRejected, emailInvalid } from './email-address.errors';
import { normaliseEmail } from './address-rule';
import { isDisposableDomain, loadDisposableDomains } from './disposable-domains';
import type { DomainVerdictCache } from './domain-verdict-cache';
import type { MailDomainDns } from './mail-domain-dns';

/** One domain check's result, as observed by metrics. `seconds`: the DNS round trip, on a cache miss. */
export interface DomainCheckObservation {
  outcome: 'ok' | 'no_mx' | 'dns_timeout' | 'disposable';
  source: 'dns' | 'cache' | 'list';
  seconds?: number;
}

export interface EmailDomainValidator {
  /**
   * Resolves to the address in its normalised form when it may be saved or accepted; throws the
   * 422 error saying why not (the same body in every service).
   */
  validate(email: string): Promise<string>;
}

/**
 * The checks before an address is accepted, cheapest first: the address rule, the disposable list
 * (no DNS query at all), then MX or A/AAAA, cached. A timeout is never cached: the next try asks again.
 */
export function createEmailDomainValidator(deps: {
  dns: MailDomainDns;
  cache: DomainVerdictCache;
  disposableAllowList: readonly string[];
  observe?: (observation: DomainCheckObservation) => void;
}): EmailDomainValidator {
  const observe = deps.observe ?? (() => undefined);
  loadDisposableDomains();
  return {
    async validate(email) {
      const normalised = normaliseEmail(email);
      if (!normalised) throw emailInvalid();
      const { domain } = normalised;
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
      return normalised.address;
    },
  };
}
