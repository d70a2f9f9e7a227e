import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE, validationFailed, zodMessages } from '@mailer/shared';
import type { CampaignContentInput } from './campaign-record';

const text = (max: number) => z.string().max(max).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);
const line = (max: number) => text(max).refine((value) => !/[\r\n]/.test(value), 'must be one line');

/** What a draft may be given; the same rules for the internal API and the operator CLI. */
const contentFields = {
  name: line(255).trim().min(1),
  /** The subject line (the spec's `title`); a Liquid template. */
  title: line(255).trim().min(1),
  preview_text: line(1000),
  html: text(256 * 1024).min(1),
  text_body: text(256 * 1024).nullable(),
  from_name: line(200).nullable(),
  from_address: z.string().max(254).email().nullable(),
  audience_tags: z.array(line(100).trim().min(1)).max(50),
  audience_match: z.enum(['any', 'all']),
  /** A segment of the contacts service, which evaluates it; automation fails the send if it is gone by then. */
  audience_segment_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
};

export const newCampaignSchema = z.object({
  name: contentFields.name,
  title: contentFields.title,
  preview_text: contentFields.preview_text.default(''),
  html: contentFields.html,
  text_body: contentFields.text_body.default(null),
  from_name: contentFields.from_name.default(null),
  from_address: contentFields.from_address.default(null),
  audience_tags: contentFields.audience_tags.default([]),
  audience_match: contentFields.audience_match.default('any'),
  audience_segment_id: contentFields.audience_segment_id.default(null),
});

export const campaignChangesSchema = z.object(contentFields).partial();

function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
  return parsed.data;
}

export const parseNewCampaign = (input: unknown): Required<CampaignContentInput> => parseWith(newCampaignSchema, input);
export const parseCampaignChanges = (input: unknown): CampaignContentInput => parseWith(campaignChangesSchema, input);
