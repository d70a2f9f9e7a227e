import { AppError, CommonErrorCodes } from '../errors/app-error';

/** The interface's `domain_error` values, in one place for the code and the OpenAPI documents. */
export const DOMAIN_ERRORS = ['disposable', 'no_mx', 'dns_timeout'] as const;
export type DomainError = (typeof DOMAIN_ERRORS)[number];

const domainMessages: Record<DomainError, string> = {
  disposable: 'email domain belongs to a disposable email provider',
  no_mx: 'email domain has no MX or A record and cannot receive email',
  dns_timeout: 'email domain could not be verified: DNS lookup timed out',
};

/** The message every service gives for an address that fails the address rule. */
export const INVALID_EMAIL_MESSAGE = 'email is invalid';

/** 422 `{ errors, domain_error }`: the same body wherever an address is refused for its domain. */
export const emailDomainRejected = (reason: DomainError) =>
  new AppError(CommonErrorCodes.EMAIL_DOMAIN, domainMessages[reason], { domain_error: reason });

/** 422 `{ errors }` for an address that fails the address rule. */
export const emailInvalid = () => new AppError(CommonErrorCodes.EMAIL_INVALID, INVALID_EMAIL_MESSAGE);
