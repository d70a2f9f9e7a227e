import { emailClickedV1, emailOpenedV1, QUEUES, type ConsumerSpec } from '@mailer/shared';
import { recordEngagement } from '../../domain/record-engagement';
import type { ConsumerDeps } from './consumer-deps';

/** email.opened.v1 and email.clicked.v1 (the events service's tracking): the engagement segments read. */
export const emailEngagementConsumer = (deps: ConsumerDeps): ConsumerSpec<typeof emailOpenedV1 | typeof emailClickedV1> => ({
  queue: QUEUES.contactsEngagement.name,
  contracts: [emailOpenedV1, emailClickedV1],
  prefetch: 32,
  handle: (message) => recordEngagement(deps.pool, `${QUEUES.contactsEngagement.name}:${message.payload.hit_id}`, message.payload),
  onOutcome: (outcome, messageId) => deps.onOutcome?.(QUEUES.contactsEngagement.name, outcome, messageId),
});
