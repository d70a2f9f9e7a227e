import { z } from 'zod';
import { CAMPAIGN_STATUSES, type NewCampaign } from './campaign';

const count = z.number().int().min(0).max(2_147_483_647);
const timestamp = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T09:00:00Z' })
  .nullable()
  .default(null)
  .transform((value) => (value === null ? null : new Date(value)));

// Statuses in which nothing has gone out yet, so a sent_at would contradict the status.
const NOT_SENT = new Set(['draft', 'scheduled', 'approved']);

/**
 * One campaign of an import file: the spec's fields (id excepted: ids are assigned here), plus the
 * subject `q` searches. Unknown keys are refused so a typo (`emails_snt`) is not silently dropped.
 */
export const importedCampaignSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(255),
    title: z.string().max(255).default(''),
    subject: z.string().max(998).nullable().default(null),
    status: z.enum(CAMPAIGN_STATUSES, { error: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` }).default('draft'),
    preview_text: z.string().max(1000).default(''),
    emails_sent: count.default(0),
    emails_failed: count.default(0),
    total_recipients: count.default(0),
    unsubscribes_count: count.default(0),
    send_at: timestamp,
    sent_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .superRefine((campaign, ctx) => {
    if (campaign.status === 'scheduled' && campaign.send_at === null) {
      ctx.addIssue({ code: 'custom', path: ['send_at'], message: 'is required when status is scheduled' });
    }
    if (campaign.status === 'sent' && campaign.sent_at === null) {
      ctx.addIssue({ code: 'custom', path: ['sent_at'], message: 'is required when status is sent' });
    }
    if (NOT_SENT.has(campaign.status) && campaign.sent_at !== null) {
      ctx.addIssue({ code: 'custom', path: ['sent_at'], message: `must be null when status is ${campaign.status}` });
    }
  });

const importFileSchema = z.array(importedCampaignSchema, { error: 'the file must hold a JSON array of campaigns' });

export type ImportValidation = { ok: true; campaigns: NewCampaign[] } | { ok: false; problems: string[] };

/** Validates a whole import file: every problem of every row, each with its row index (from 0). */
export function validateCampaignImport(json: unknown): ImportValidation {
  const result = importFileSchema.safeParse(json);
  if (result.success) return { ok: true, campaigns: result.data };
  const problems = result.error.issues.map((issue) => {
    const [row, ...field] = issue.path.map(String);
    if (row === undefined) return issue.message;
    return field.length > 0 ? `row ${row}: ${field.join('.')}: ${issue.message}` : `row ${row}: ${issue.message}`;
  });
  return { ok: false, problems };
}
