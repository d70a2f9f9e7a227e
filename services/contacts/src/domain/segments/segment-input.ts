import { z } from 'zod';
import { invalidSegment } from './segment.errors';
import { segmentRuleSchema, type SegmentGroup } from './segment-rule';

const segmentBody = z.strictObject({
  name: z.string({ error: 'name must be a string' }).trim().min(1, 'name must not be empty').max(255, 'name must be at most 255 characters'),
  rule: segmentRuleSchema,
});
const previewBody = z.strictObject({ rule: segmentRuleSchema });

/** A segment as the API takes it (create and update alike), or the 422 naming each problem. */
export function parseSegmentInput(body: unknown): { name: string; rule: SegmentGroup } {
  const parsed = segmentBody.safeParse(body);
  if (!parsed.success) throw invalidSegment(parsed.error.issues);
  return parsed.data;
}

/** A rule to preview, or the 422. */
export function parsePreviewInput(body: unknown): SegmentGroup {
  const parsed = previewBody.safeParse(body);
  if (!parsed.success) throw invalidSegment(parsed.error.issues);
  return parsed.data.rule;
}
