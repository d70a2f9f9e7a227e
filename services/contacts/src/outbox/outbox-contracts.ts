import {
  contactConfirmationRequestedV1,
  contactCreatedV1,
  contactDeletedV1,
  contactUpdatedV1,
  productEventEnrichedV1,
  type MessageContract,
} from '@mailer/shared';

/**
 * Every message type this service's outbox may hold, by routing key. Enriched product events are
 * published after commit now; the type stays so rows an older version wrote are still relayed.
 */
export const outboxContracts = new Map<string, MessageContract>(
  [contactCreatedV1, contactUpdatedV1, contactDeletedV1, productEventEnrichedV1, contactConfirmationRequestedV1].map((contract) => [
    contract.type,
    contract,
  ]),
);
