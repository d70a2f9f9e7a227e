import {
  contactCreatedV1,
  contactDeletedV1,
  contactUpdatedV1,
  productEventEnrichedV1,
  type MessageContract,
} from '@mailer/shared';

/** Every message type this service writes to its outbox, by routing key. */
export const outboxContracts = new Map<string, MessageContract>(
  [contactCreatedV1, contactUpdatedV1, contactDeletedV1, productEventEnrichedV1].map((contract) => [
    contract.type,
    contract,
  ]),
);
