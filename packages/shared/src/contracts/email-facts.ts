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

/**
 * One tracking hit, published by the events service when a tracking URL of an email is fetched.
 * Exactly one of `campaign_id` and `workflow_id` (with `step`) names the email. The message id is
 * the hit's own (`hit_id`), which every consumer deduplicates by.
 */
const engagementHit = z.object({
  hit_id: z.string().uuid(),
  account_id: z.number().int().positive(),
  contact_id: z.number().int().positive(),
  campaign_id: z.number().int().positive().optional(),
  workflow_id: z.number().int().positive().optional(),
  step: z.string().optional(),
  /** When the email was rendered for sending. */
  sent_at: z.string(),
  occurred_at: z.string(),
  /**
   * The hit looks like a machine's, not a reader's: a link scanner or mail proxy fetching within
   * seconds of delivery, or a client that names itself a scanner. Counted apart, never dropped.
   */
  machine: z.boolean(),
});

/** A reader (or a machine, see `machine`) loaded an email's open pixel. */
export const emailOpenedV1 = defineContract('email.opened.v1', engagementHit);

/** A reader followed a tracked link of an email: `url` as the email had it, `link` its position. A click implies an open. */
export const emailClickedV1 = defineContract('email.clicked.v1', engagementHit.extend({ url: z.string().url(), link: z.number().int().min(0) }));
