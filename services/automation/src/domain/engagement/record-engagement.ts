import { withTransaction, type emailClickedV1, type emailOpenedV1, type MessageOf, type Pool } from '@mailer/shared';
import { countLinkClick, recordLedgerHit } from '../../data-access/engagement.repository';
import { claimMessage } from '../../data-access/processed-messages.repository';
import { afterWorkflowClick } from './after-workflow-click';

export type EngagementHit =
  | { kind: 'open'; payload: MessageOf<typeof emailOpenedV1> }
  | { kind: 'click'; payload: MessageOf<typeof emailClickedV1> };

/**
 * Records one tracking hit against the email's ledger row, once: the inbox row (`engagement:<hit
 * id>`) is written in the same transaction, so a redelivered hit changes nothing. A reader's click
 * also counts on its link and wakes what waits on it; a machine's hit only counts as one. A hit
 * for an email the ledger does not hold (deleted with its workflow) is dropped.
 */
export async function recordEngagement(pool: Pool, hit: EngagementHit, deps: { mailDomain: string }): Promise<void> {
  const { payload } = hit;
  await withTransaction(pool, async (client) => {
    if (!(await claimMessage(client, `engagement:${payload.hit_id}`))) return;
    const row = await recordLedgerHit(client, {
      kind: hit.kind,
      machine: payload.machine,
      accountId: payload.account_id,
      contactId: payload.contact_id,
      occurredAt: payload.occurred_at,
      campaignId: payload.campaign_id,
      workflowId: payload.workflow_id,
      stepId: payload.step,
    });
    if (!row || hit.kind !== 'click' || payload.machine) return;
    await countLinkClick(client, row.ledger, row.id, hit.payload.url, payload.occurred_at);
    if (row.ledger === 'workflow') await afterWorkflowClick(client, row.id, deps);
  });
}
