/** Error codes of this service; the app's error middleware maps them to statuses. */
export const WebhookErrorCodes = {
  /** The URL's host is (or resolves to) an address the operator does not allow. */
  ADDRESS_REFUSED: 'WEBHOOK.ADDRESS_REFUSED',
} as const;

export const webhookStatusByCode: Record<string, number> = {
  [WebhookErrorCodes.ADDRESS_REFUSED]: 422,
};
