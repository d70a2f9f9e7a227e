import type { DomainError } from './types';

/** Any answer that is not a success: the status and the parsed body (or the text, if not JSON). */
export class MailerApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'MailerApiError';
  }
}

/** 422: `errors` lists every problem; `domainError` is set when the email domain check refused the address. */
export class MailerValidationError extends MailerApiError {
  readonly errors: string[];
  readonly domainError: DomainError | undefined;

  constructor(body: { errors?: unknown; domain_error?: unknown }) {
    const errors = Array.isArray(body.errors) ? body.errors.map(String) : [];
    super(422, body, errors.join('; ') || 'validation failed');
    this.name = 'MailerValidationError';
    this.errors = errors;
    this.domainError = isDomainError(body.domain_error) ? body.domain_error : undefined;
  }
}

/** 429 after the client's bounded retries (or a Retry-After longer than it may wait). */
export class MailerRateLimitError extends MailerApiError {
  constructor(
    body: unknown,
    readonly retryAfterSeconds: number,
  ) {
    super(429, body, `rate limited; retry after ${retryAfterSeconds} s`);
    this.name = 'MailerRateLimitError';
  }
}

const isDomainError = (value: unknown): value is DomainError => value === 'disposable' || value === 'no_mx' || value === 'dns_timeout';
