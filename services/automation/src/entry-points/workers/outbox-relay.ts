import type { Logger } from 'pino';
import {
  contactBouncedV1,
  contactConfirmedV1,
  contactUnsubscribeRequestedV1,
  emailSentV1,
  OutboxRelay,
  workflowCompletedV1,
  type Broker,
  type Pool,
} from '@mailer/shared';

/**
 * The relay of automation's facts (bounces, unsubscribes, confirmations, emails sent, workflows
 * completed). Every send wakes it, so wake-ups within 20 ms share one pass; rows keep the sending
 * transaction's traceparent, so a fact's publish joins the send's trace.
 */
export const automationOutboxRelay = (pool: Pool, broker: Broker, logger: Logger, pollMs: number) =>
  new OutboxRelay({
    name: 'outbox-relay',
    pool,
    broker,
    logger,
    pollMs,
    contracts: [contactBouncedV1, contactUnsubscribeRequestedV1, emailSentV1, workflowCompletedV1, contactConfirmedV1],
    coalesceMs: 20,
    traceContext: true,
  });
