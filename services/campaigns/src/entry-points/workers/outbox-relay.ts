import type { Logger } from 'pino';
import {
  campaignControlV1,
  campaignSendRequestedV1,
  campaignSentV1,
  campaignTestRequestedV1,
  OutboxRelay,
  type Broker,
  type Pool,
} from '@mailer/shared';

/**
 * The relay of campaigns' requests to automation and its sent facts. It also polls, so a row
 * written by the operator CLI (another process) goes out within `pollMs`.
 */
export const campaignOutboxRelay = (pool: Pool, broker: Broker, logger: Logger, pollMs: number) =>
  new OutboxRelay({
    name: 'campaigns-outbox-relay',
    pool,
    broker,
    logger,
    pollMs,
    contracts: [campaignSendRequestedV1, campaignControlV1, campaignTestRequestedV1, campaignSentV1],
  });
