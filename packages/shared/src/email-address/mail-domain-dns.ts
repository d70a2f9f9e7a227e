import { Resolver } from 'node:dns/promises';

/** What DNS says about a domain's ability to receive mail. */
export type DomainLookup = 'deliverable' | 'no_mx' | 'dns_timeout';

export interface MailDomainDns {
  lookupMailDomain(domain: string): Promise<DomainLookup>;
}

type Answer = 'found' | 'none' | 'nxdomain' | 'timeout';

async function ask(query: () => Promise<unknown[]>): Promise<Answer> {
  try {
    return (await query()).length > 0 ? 'found' : 'none';
  } catch (error) {
    const code = (error as { code?: string }).code;
    // c-ares: ENOTFOUND is NXDOMAIN (the name does not exist), ENODATA the name has no such record.
    if (code === 'ENOTFOUND') return 'nxdomain';
    if (code === 'ENODATA' || code === 'ENONAME') return 'none';
    // Anything else (ETIMEOUT, ESERVFAIL, ECONNREFUSED, ...) means the domain could not be verified.
    return 'timeout';
  }
}

/**
 * MX first, then A/AAAA (RFC 5321 implicit MX). One try per query, and one overall deadline, so a
 * silent server costs at most `timeoutMs` whatever c-ares does internally.
 */
export function createMailDomainDns(options: {
  servers: readonly string[];
  timeoutMs: number;
}): MailDomainDns {
  const newResolver = () => {
    const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
    if (options.servers.length > 0) resolver.setServers([...options.servers]);
    return resolver;
  };

  const lookup = async (resolver: Resolver, domain: string): Promise<DomainLookup> => {
    const mx = await ask(async () =>
      // A "null MX" (RFC 7505, exchange ".") says the domain accepts no mail.
      (await resolver.resolveMx(domain)).filter(
        (record) => record.exchange !== '' && record.exchange !== '.',
      ),
    );
    if (mx === 'found') return 'deliverable';
    if (mx === 'timeout') return 'dns_timeout';
    // A name that does not exist has no A or AAAA record either: no need to ask.
    if (mx === 'nxdomain') return 'no_mx';
    const [a, aaaa] = await Promise.all([
      ask(() => resolver.resolve4(domain)),
      ask(() => resolver.resolve6(domain)),
    ]);
    if (a === 'found' || aaaa === 'found') return 'deliverable';
    return a === 'timeout' || aaaa === 'timeout' ? 'dns_timeout' : 'no_mx';
  };

  return {
    async lookupMailDomain(domain) {
      // A resolver per lookup: cancel() at the deadline must not abort other requests' queries.
      const resolver = newResolver();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<DomainLookup>((resolve) => {
        timer = setTimeout(() => {
          resolver.cancel();
          resolve('dns_timeout');
        }, options.timeoutMs);
      });
      try {
        return await Promise.race([lookup(resolver, domain), deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
