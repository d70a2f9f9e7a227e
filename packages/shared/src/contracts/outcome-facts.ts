import { z } from 'zod';
import { defineContract } from './message-contract';

const id = z.number().int().positive();

/**
 * Campaigns saw a campaign finish sending (status `sent`): the final counts, once per campaign.
 * Published by the campaigns service through its outbox in the same transaction as the status.
 */
export const campaignSentV1 = defineContract(
  'campaign.sent.v1',
  z.object({
    account_id: id,
    campaign_id: id,
    name: z.string(),
    total_recipients: z.number().int().min(0),
    sent: z.number().int().min(0),
    failed: z.number().int().min(0),
    skipped: z.number().int().min(0),
    sent_at: z.string(),
  }),
);

/**
 * Automation finished a contact's run of a workflow: its last email step has a final outcome
 * (sent, skipped or failed for good). Published through automation's outbox with that outcome.
 */
export const workflowCompletedV1 = defineContract(
  'workflow.completed.v1',
  z.object({
    account_id: id,
    contact_id: id,
    workflow: z.string(),
    last_step: z.string(),
    last_step_outcome: z.enum(['sent', 'skipped', 'failed']),
    occurred_at: z.string(),
  }),
);
