import { AppError, CommonErrorCodes } from '@mailer/shared';

/** The gateway's own error codes; the status of each is decided once, in `gatewayStatusByCode`. */
export const GatewayErrorCodes = {
  UNKNOWN_PLAN: 'ACCOUNT.UNKNOWN_PLAN',
  ACCOUNT_NOT_FOUND: 'ACCOUNT.NOT_FOUND',
  EMAIL_TAKEN: 'USER.EMAIL_TAKEN',
  KEY_NOT_FOUND: 'KEY.NOT_FOUND',
  RESET_TOKEN_UNUSABLE: 'USER.RESET_TOKEN_UNUSABLE',
  UPSTREAM_UNAVAILABLE: 'GATEWAY.UPSTREAM_UNAVAILABLE',
  UPSTREAM_TIMEOUT: 'GATEWAY.UPSTREAM_TIMEOUT',
  UPSTREAM_FAILED: 'GATEWAY.UPSTREAM_FAILED',
} as const;

export const gatewayStatusByCode: Record<string, number> = {
  [GatewayErrorCodes.UNKNOWN_PLAN]: 422,
  [GatewayErrorCodes.ACCOUNT_NOT_FOUND]: 404,
  [GatewayErrorCodes.EMAIL_TAKEN]: 422,
  [GatewayErrorCodes.KEY_NOT_FOUND]: 404,
  // Unknown, expired or used: the link is gone for good.
  [GatewayErrorCodes.RESET_TOKEN_UNUSABLE]: 410,
  [GatewayErrorCodes.UPSTREAM_UNAVAILABLE]: 503,
  [GatewayErrorCodes.UPSTREAM_TIMEOUT]: 504,
  [GatewayErrorCodes.UPSTREAM_FAILED]: 502,
};

export const accountNotFound = () => new AppError(GatewayErrorCodes.ACCOUNT_NOT_FOUND, 'account not found');
export const keyNotFound = () => new AppError(GatewayErrorCodes.KEY_NOT_FOUND, 'API key not found');
export const invalidInput = (message: string) =>
  new AppError(CommonErrorCodes.VALIDATION, message, {}, [message]);
