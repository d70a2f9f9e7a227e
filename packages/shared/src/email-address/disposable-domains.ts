import disposableDomains from 'disposable-email-domains/index.json';
import wildcardDomains from 'disposable-email-domains/wildcard.json';

const exact = new Set<string>(disposableDomains);
const wildcards = new Set<string>(wildcardDomains);

/** `a.b.c` -> ['a.b.c', 'b.c', 'c']: a wildcard entry covers every name below it. */
const suffixes = (domain: string) =>
  domain.split('.').map((_, index, labels) => labels.slice(index).join('.'));

/**
 * Whether `domain` belongs to a known disposable provider (the maintained list and its wildcard
 * list), unless the operator's allow-list names it or a parent of it.
 */
export function isDisposableDomain(domain: string, allowList: readonly string[]): boolean {
  const names = suffixes(domain.toLowerCase());
  if (names.some((name) => allowList.includes(name))) return false;
  return exact.has(domain) || names.some((name) => wildcards.has(name));
}
