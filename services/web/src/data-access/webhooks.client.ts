import { AppError, type Caller, CommonErrorCodes, expectOk, type SignedClient } from '@mailer/shared';
import type { Refused } from './automation.client';

export type EndpointStatus = 'active' | 'failing' | 'disabled';

/** An endpoint as the webhooks service's internal API shows it (never its secret). */
export interface WebhookEndpoint {
  id: number;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  /** `failing`: a delivery used up its retries; the next success makes it `active` again. */
  status: EndpointStatus;
  failing_since: string | null;
  /** Until when the previous secret still signs (after a rotation), else null. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string;
  error: string | null;
  succeeded: boolean;
}

export interface WebhookDelivery {
  id: number;
  webhook_id: string;
  event_type: string;
  state: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
}

/** What the endpoint form writes. */
export interface EndpointInput {
  url: string;
  event_types: string[];
  description: string;
  enabled: boolean;
}

const messagesOf = (body: unknown): string[] => {
  const value = body as { errors?: unknown; error?: unknown } | undefined;
  if (Array.isArray(value?.errors)) return value.errors.map(String);
  return [typeof value?.error === 'string' ? value.error : 'refused'];
};

const ID = /^[1-9]\d{0,14}$/;

const endpointPath = (id: string | number) => {
  if (!ID.test(String(id))) throw new AppError(CommonErrorCodes.NOT_FOUND, 'webhook endpoint not found');
  return `/internal/v1/webhook-endpoints/${id}`;
};

/**
 * The webhooks service for the signed-in account (its signed internal API). A 422 (bad URL, an
 * address the operator does not allow, no event type) comes back as reasons for the form; another
 * account's endpoint is a 404 like a missing one.
 */
export class WebhooksClient {
  constructor(private readonly client: SignedClient) {}

  private async send<T>(caller: Caller, method: 'POST' | 'PATCH', path: string, body: unknown): Promise<T | Refused> {
    const answer = await this.client.call(caller, method, path, body);
    if (answer.status === 422 || answer.status === 400) return { refused: messagesOf(answer.body) };
    return expectOk<T>(answer, 'webhooks');
  }

  async eventTypes(caller: Caller): Promise<string[]> {
    return expectOk<{ data: string[] }>(await this.client.call(caller, 'GET', '/internal/v1/webhook-event-types'), 'webhook event types').data;
  }

  async list(caller: Caller): Promise<WebhookEndpoint[]> {
    return expectOk<{ data: WebhookEndpoint[] }>(await this.client.call(caller, 'GET', '/internal/v1/webhook-endpoints'), 'webhook endpoints').data;
  }

  async get(caller: Caller, id: string | number): Promise<WebhookEndpoint> {
    return expectOk<{ data: WebhookEndpoint }>(await this.client.call(caller, 'GET', endpointPath(id)), 'webhook endpoint').data;
  }

  /** The new endpoint and its signing secret: the only time the secret is shown. */
  create(caller: Caller, input: EndpointInput) {
    return this.send<{ data: WebhookEndpoint; secret: string }>(caller, 'POST', '/internal/v1/webhook-endpoints', input);
  }

  async update(caller: Caller, id: number, input: Partial<EndpointInput>): Promise<WebhookEndpoint | Refused> {
    const answer = await this.send<{ data: WebhookEndpoint }>(caller, 'PATCH', endpointPath(id), input);
    return 'refused' in answer ? answer : answer.data;
  }

  /** A new secret (shown once); the previous one keeps signing too for the overlap window. */
  async rotateSecret(caller: Caller, id: number): Promise<{ data: WebhookEndpoint; secret: string }> {
    return expectOk(await this.client.call(caller, 'POST', `${endpointPath(id)}/rotate-secret`, {}), 'webhook endpoint');
  }

  async delete(caller: Caller, id: number): Promise<void> {
    expectOk(await this.client.call(caller, 'DELETE', endpointPath(id)), 'webhook endpoint');
  }

  async deliveries(caller: Caller, id: number, options: { limit: number; before?: number | undefined }): Promise<WebhookDelivery[]> {
    const query = new URLSearchParams({ limit: String(options.limit) });
    if (options.before !== undefined) query.set('before', String(options.before));
    return expectOk<{ data: WebhookDelivery[] }>(await this.client.call(caller, 'GET', `${endpointPath(id)}/deliveries?${query.toString()}`), 'webhook deliveries').data;
  }

  async resend(caller: Caller, id: number, deliveryId: string): Promise<void> {
    if (!ID.test(deliveryId)) throw new AppError(CommonErrorCodes.NOT_FOUND, 'delivery not found');
    expectOk(await this.client.call(caller, 'POST', `${endpointPath(id)}/deliveries/${deliveryId}/resend`, {}), 'webhook delivery');
  }
}
