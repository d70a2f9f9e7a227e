import { AppError } from '@mailer/shared';

export const ContactErrorCodes = {
  EMAIL_TAKEN: 'CONTACT.EMAIL_TAKEN',
  EMAIL_DOMAIN: 'CONTACT.EMAIL_DOMAIN',
  INVALID: 'CONTACT.INVALID',
} as const;

/** The one table the error middleware reads: every contact failure a client causes is a 422. */
export const contactStatusByCode: Record<string, number> = {
  [ContactErrorCodes.EMAIL_TAKEN]: 422,
  [ContactErrorCodes.EMAIL_DOMAIN]: 422,
  [ContactErrorCodes.INVALID]: 422,
};

/** The spec's `domain_error` values, in one place for the code and the OpenAPI document. */
export const DOMAIN_ERRORS = ['disposable', 'no_mx', 'dns_timeout'] as const;
export type DomainError = (typeof DOMAIN_ERRORS)[number];

const domainMessages: Record<DomainError, string> = {
  disposable: 'email domain belongs to a disposable email provider',
  no_mx: 'email domain has no MX or A record and cannot receive email',
  dns_timeout: 'email domain could not be verified: DNS lookup timed out',
};

export const emailDomainRejected = (reason: DomainError) =>
  new AppError(ContactErrorCodes.EMAIL_DOMAIN, domainMessages[reason], { domain_error: reason });

export const emailTaken = () => new AppError(ContactErrorCodes.EMAIL_TAKEN, 'email has already been taken');

export const invalidContact = (messages: string[]) =>
  new AppError(ContactErrorCodes.INVALID, messages[0] ?? 'contact is invalid', {}, messages);
