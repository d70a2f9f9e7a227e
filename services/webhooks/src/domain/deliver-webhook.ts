import { recordAttempt, type ClaimedDelivery } from '../data-access/deliveries.repository';
import type { WebhookHttp } from '../data-access/webhook-http';
import type { Pool } from '@mailer/shared';
import type { Logger } from 'pino';
import { signatureHeaders } from './signing';

export interface DeliveryContext {
  pool: Pool;
  http: WebhookHttp;
  logger: Logger;
  /** Waits after each failed attempt; its length + 1 is the number of attempts. */
  retrySchedule: number[];
}

/** The wait before the next attempt after `attempts` failed ones, or null when the schedule is spent. */
export const retryDelay = (schedule: number[], attempts: number): number | null => schedule[attempts - 1] ?? null;

/** One attempt of one claimed delivery: sign, POST, record the answer and what happens next. */
export async function deliverWebhook(ctx: DeliveryContext, delivery: ClaimedDelivery): Promise<void> {
  const secrets = delivery.previous_secret ? [delivery.secret, delivery.previous_secret] : [delivery.secret];
  const headers = signatureHeaders(secrets, delivery.message_id, new Date(), delivery.payload);
  const answer = await ctx.http.post(delivery.url, headers, delivery.payload);
  const succeeded = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const retryInMs = succeeded ? null : retryDelay(ctx.retrySchedule, delivery.attempts);
  const recorded = await recordAttempt(ctx.pool, delivery, { ...answer, succeeded, retryInMs });
  const fields = { endpoint: delivery.endpoint_id, delivery: delivery.id, webhookId: delivery.message_id, attempt: delivery.attempts, status: answer.status, latencyMs: answer.latencyMs };
  if (!recorded) ctx.logger.warn(fields, 'webhook attempt outcome not recorded: the claim was lost');
  else if (succeeded) ctx.logger.info(fields, 'webhook delivered');
  else if (retryInMs === null) ctx.logger.warn({ ...fields, error: answer.error }, 'webhook failed for good; endpoint marked failing');
  else ctx.logger.info({ ...fields, error: answer.error, retryInMs }, 'webhook not accepted; will retry');
}
