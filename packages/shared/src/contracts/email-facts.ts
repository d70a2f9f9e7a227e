import { z } from 'zod';
import { defineContract } from './message-contract';

/** Automation delivered (or finally failed) one step's email; campaigns may count it. */
export const emailSentV1 = defineContract(
  'email.sent.v1',
  z.object({
    account_id: z.number().int().positive(),
    contact_id: z.number().int().positive(),
    workflow: z.string(),
    step: z.string(),
    message_id: z.string(),
    outcome: z.enum(['sent', 'failed']),
    occurred_at: z.string(),
    /** Set when the email belongs to a campaign send; campaigns then counts it. Workflow emails omit it. */
    campaign_id: z.number().int().positive().optional(),
  }),
);
