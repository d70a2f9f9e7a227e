import { domainToASCII } from 'node:url';

// Practical RFC 5321 shape: dot-atom local part, a domain of LDH labels with an alphabetic TLD.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^(xn--[a-z0-9-]+|[a-z]{2,63})$/;

/** The address's domain in ASCII lower case (IDNs as punycode), or undefined when malformed. */
export function emailDomain(email: string): string | undefined {
  if (email.length > 254) return undefined;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at !== email.indexOf('@')) return undefined;
  const local = email.slice(0, at);
  if (local.length > 64 || !LOCAL_PART.test(local)) return undefined;
  const domain = domainToASCII(email.slice(at + 1).toLowerCase());
  if (!domain || domain.length > 253) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  return TLD.test(labels[labels.length - 1] ?? '') ? domain : undefined;
}

export const isWellFormedEmail = (email: string) => emailDomain(email) !== undefined;
