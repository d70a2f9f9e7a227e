import { domainToASCII } from 'node:url';

/** RFC 5321's limits: the whole path, the local part, the domain. */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_LOCAL_PART_LENGTH = 64;
const MAX_DOMAIN_LENGTH = 253;

// Practical RFC 5321 shape: dot-atom local part, a domain of LDH labels with an alphabetic TLD.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^(xn--[a-z0-9-]+|[a-z]{2,63})$/;
// C0, DEL and C1 controls: never part of an address, and a line break in one is a header injection.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** An address in its one stored form: what contacts, event ingest and automation all compare. */
export interface NormalisedEmail {
  /** The local part as given, `@`, the domain lower-cased and in ASCII (IDNs as punycode). */
  address: string;
  domain: string;
}

/** A domain as addresses store it: lower case, in ASCII (an IDN as punycode); empty when it has no such form. */
export const normaliseDomain = (domain: string): string => domainToASCII(domain.toLowerCase());

/**
 * The one address rule: trim surrounding spaces, refuse control characters, keep the local part as
 * given, lower-case and IDNA-normalise the domain, then check the shape and RFC 5321's lengths.
 * Undefined when the input is not an address we can send to.
 */
export function normaliseEmail(input: string): NormalisedEmail | undefined {
  const trimmed = input.trim();
  if (CONTROL.test(trimmed)) return undefined;
  const at = trimmed.lastIndexOf('@');
  if (at <= 0 || at !== trimmed.indexOf('@')) return undefined;
  const local = trimmed.slice(0, at);
  if (local.length > MAX_LOCAL_PART_LENGTH || !LOCAL_PART.test(local)) return undefined;
  const domain = normaliseDomain(trimmed.slice(at + 1));
  if (!domain || domain.length > MAX_DOMAIN_LENGTH) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (!TLD.test(labels[labels.length - 1] ?? '')) return undefined;
  const address = `${local}@${domain}`;
  return address.length > MAX_EMAIL_LENGTH ? undefined : { address, domain };
}

/** The address's domain in ASCII lower case, or undefined when the address fails the rule. */
export const emailDomain = (email: string) => normaliseEmail(email)?.domain;

export const isWellFormedEmail = (email: string) => normaliseEmail(email) !== undefined;

/**
 * The key two spellings of one mailbox share: the normalised address, lower-cased whole (contacts
 * are unique per account case-insensitively, and the suppression list follows the same rule).
 */
export const emailKey = (email: string) => (normaliseEmail(email)?.address ?? email.trim()).toLowerCase();
