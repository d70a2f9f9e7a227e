import { contactConfirmationRequestedV1, QUEUES, type Broker } from '@mailer/shared';
import { requestConfirmation, type ConfirmationDeps } from '../../domain/confirmation/request-confirmation';

/** automation.confirmation-requests: a pending contact's confirmation email enters the send ledger. */
export function consumeConfirmationRequests(broker: Broker, deps: ConfirmationDeps & { onQueued: () => void }): void {
  broker.consume({
    queue: QUEUES.automationConfirmationRequests.name,
    contracts: [contactConfirmationRequestedV1],
    prefetch: 16,
    handle: async (message) => {
      await requestConfirmation(deps, message.messageId, message.payload);
      deps.onQueued();
    },
  });
}
