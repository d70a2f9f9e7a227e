import { AppError } from '@mailer/shared';

/** Error codes of this service; the app's error middleware maps them to statuses. */
export const WebhookErrorCodes = {
  /** The URL's host is (or resolves to) an address the operator does not allow. */
  ADDRESS_REFUSED: 'WEBHOOK.ADDRESS_REFUSED',
  /** The broker could not route the endpoint's facts yet: nothing was saved, the caller retries. */
  ROUTING_UNAVAILABLE: 'WEBHOOK.ROUTING_UNAVAILABLE',
} as const;

export const webhookStatusByCode: Record<string, number> = {
  [WebhookErrorCodes.ADDRESS_REFUSED]: 422,
  [WebhookErrorCodes.ROUTING_UNAVAILABLE]: 503,
};

export const routingUnavailable = () =>
  new AppError(WebhookErrorCodes.ROUTING_UNAVAILABLE, 'webhook delivery is temporarily unavailable; nothing was saved, retry later').withHeaders({
    'Retry-After': '5',
  });
