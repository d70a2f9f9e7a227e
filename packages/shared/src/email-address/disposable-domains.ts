import { readFileSync } from 'node:fs';
import wildcardDomains from 'disposable-email-domains/wildcard.json';
import { normaliseDomain } from './address-rule';
import { namesOfJsonArray } from './json-name-list';
import { SortedNames } from './sorted-names';

/** The list's names as addresses are compared (`normaliseDomain`); a name that has no such form is dropped. */
const asCompared = (names: readonly string[]) => names.map(normaliseDomain).filter((name) => name !== '');

let exact: SortedNames | undefined;
const wildcards = new Set(asCompared(wildcardDomains));

/**
 * The ~120,000 exact names, read on first use, from the file's bytes into the sorted buffer. An
 * imported JSON array would stay in the module cache, 120,000 strings on the heap for good.
 */
function exactNames(): SortedNames {
  exact ??= SortedNames.fromRanges(
    namesOfJsonArray(readFileSync(require.resolve('disposable-email-domains/index.json')), normaliseDomain),
  );
  return exact;
}

/** `a.b.c` -> ['a.b.c', 'b.c', 'c']: a wildcard entry covers every name below it. */
const suffixes = (domain: string) =>
  domain.split('.').map((_, index, labels) => labels.slice(index).join('.'));

/**
 * Whether `domain` (lower case, ASCII: `normaliseEmail`'s form) belongs to a known disposable
 * provider (the maintained list and its wildcard list), unless the operator's allow-list names it
 * or a parent of it.
 */
export function isDisposableDomain(domain: string, allowList: readonly string[]): boolean {
  const compared = domain.toLowerCase();
  const names = suffixes(compared);
  if (names.some((name) => allowList.includes(name))) return false;
  return exactNames().has(compared) || names.some((name) => wildcards.has(name));
}

/** Reads the list now, so the first address checked does not wait for it (~0.1 s). */
export function loadDisposableDomains(): void {
  exactNames();
}
