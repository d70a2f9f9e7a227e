import type { PoolClient } from '@mailer/shared';

/**
 * What else a reader's click on a workflow email causes, in the transaction that recorded it
 * (`sendId`: the `sends` row clicked). Called on every reader click, never on a machine's.
 */
export async function afterWorkflowClick(_client: PoolClient, _sendId: number): Promise<void> {
  // Nothing yet: the place for what waits on a click (a branch step).
}
