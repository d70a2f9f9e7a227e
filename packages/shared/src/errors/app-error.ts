/**
 * The error every layer raises. Domain code names what went wrong with a `code`
 * (e.g. `CONTACT.EMAIL_TAKEN`); the HTTP layer alone decides the status, from one table.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Extra body fields for the client, e.g. `{ domain_error: 'no_mx' }`. */
    readonly details: Record<string, unknown> = {},
    /** Several messages for one failure (422 `errors: [...]`). */
    readonly messages: string[] = [message],
  ) {
    super(message);
    this.name = 'AppError';
  }

  /** Response headers that belong to this failure, e.g. `Retry-After`. */
  headers: Record<string, string> = {};

  withHeaders(headers: Record<string, string>): this {
    this.headers = { ...this.headers, ...headers };
    return this;
  }
}

/** Codes every service may raise; services add their own beside these. */
export const CommonErrorCodes = {
  BAD_REQUEST: 'COMMON.BAD_REQUEST',
  VALIDATION: 'COMMON.VALIDATION',
  /** The one address rule or the email-domain verdict refused an address (contacts and events alike). */
  EMAIL_INVALID: 'EMAIL.INVALID',
  EMAIL_DOMAIN: 'EMAIL.DOMAIN',
  UNSUPPORTED_MEDIA_TYPE: 'COMMON.UNSUPPORTED_MEDIA_TYPE',
  NOT_FOUND: 'COMMON.NOT_FOUND',
  UNAUTHORIZED: 'COMMON.UNAUTHORIZED',
  FORBIDDEN: 'COMMON.FORBIDDEN',
  METHOD_NOT_ALLOWED: 'COMMON.METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'COMMON.PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'COMMON.RATE_LIMITED',
  UNAVAILABLE: 'COMMON.UNAVAILABLE',
  BAD_GATEWAY: 'COMMON.BAD_GATEWAY',
} as const;

export const commonStatusByCode: Record<string, number> = {
  [CommonErrorCodes.BAD_REQUEST]: 400,
  [CommonErrorCodes.UNAUTHORIZED]: 401,
  [CommonErrorCodes.FORBIDDEN]: 403,
  [CommonErrorCodes.NOT_FOUND]: 404,
  [CommonErrorCodes.METHOD_NOT_ALLOWED]: 405,
  [CommonErrorCodes.PAYLOAD_TOO_LARGE]: 413,
  [CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE]: 415,
  [CommonErrorCodes.VALIDATION]: 422,
  [CommonErrorCodes.EMAIL_INVALID]: 422,
  [CommonErrorCodes.EMAIL_DOMAIN]: 422,
  [CommonErrorCodes.RATE_LIMITED]: 429,
  [CommonErrorCodes.BAD_GATEWAY]: 502,
  [CommonErrorCodes.UNAVAILABLE]: 503,
};

export const notFound = (what = 'resource') =>
  new AppError(CommonErrorCodes.NOT_FOUND, `${what} not found`);

export const validationFailed = (messages: string[], details: Record<string, unknown> = {}) =>
  new AppError(CommonErrorCodes.VALIDATION, messages[0] ?? 'validation failed', details, messages);
