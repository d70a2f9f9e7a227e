import { z } from 'zod';

/** Nesting of groups, the rule itself being depth 1. */
export const MAX_RULE_DEPTH = 3;
/** Conditions in a whole rule: each is one more index read in the compiled WHERE. */
export const MAX_RULE_CONDITIONS = 50;
/** Values of one `in`. */
const MAX_IN_VALUES = 1000;
/** A window of up to ten years: further back no history is kept meaningful. */
const MAX_DAYS = 3650;

const text = (what: string, max: number) =>
  z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`).max(max, `${what} must be at most ${max} characters`);
const days = z.number({ error: 'days must be a number' }).int('days must be a whole number').min(1, 'days must be at least 1').max(MAX_DAYS, `days must be at most ${MAX_DAYS}`);

const shortString = z.string().max(2048);
const listOf = (item: z.ZodType) => z.array(item).min(1).max(MAX_IN_VALUES);

/** What `value` an op takes: `exists` none, `in` a non-empty list (`many`), the others one value (`one`). */
function checkValue(ctx: z.RefinementCtx, op: string, value: unknown, one: [z.ZodType, string], many: [z.ZodType, string]) {
  let problem: string | undefined;
  if (op === 'exists') problem = value === undefined ? undefined : 'value must be absent for op exists';
  else if (op === 'in') problem = many[0].safeParse(value).success ? undefined : `value must be a non-empty list of at most ${MAX_IN_VALUES} ${many[1]} for op in`;
  else problem = one[0].safeParse(value).success ? undefined : `value must be ${one[1]} for op ${op}`;
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['value'] });
}

const fieldCondition = z
  .strictObject({
    type: z.literal('field'),
    field: z.enum(['email', 'first_name', 'last_name', 'source'], { error: 'field must be one of email, first_name, last_name, source' }),
    op: z.enum(['eq', 'neq', 'contains', 'exists', 'in'], { error: 'op must be one of eq, neq, contains, exists, in' }),
    value: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .superRefine((condition, ctx) => checkValue(ctx, condition.op, condition.value, [shortString, 'a string'], [listOf(shortString), 'strings']));

const propertyScalar = z.union([shortString, z.number(), z.boolean()]);
const propertyCondition = z
  .strictObject({
    type: z.literal('property'),
    key: text('key', 255),
    op: z.enum(['eq', 'neq', 'lt', 'gt', 'contains', 'exists', 'in'], { error: 'op must be one of eq, neq, lt, gt, contains, exists, in' }),
    value: z.union([propertyScalar, z.array(z.union([z.string(), z.number()]))]).optional(),
  })
  .superRefine((condition, ctx) => {
    const { op } = condition;
    const one: [z.ZodType, string] =
      op === 'contains' ? [shortString, 'a string'] : op === 'lt' || op === 'gt' ? [z.union([z.number(), shortString]), 'a number or a string'] : [propertyScalar, 'a string, number or boolean'];
    checkValue(ctx, op, condition.value, one, [listOf(z.union([shortString, z.number()])), 'strings or numbers']);
  });

const tagCondition = z.strictObject({
  type: z.literal('tag'),
  op: z.enum(['has', 'has_not'], { error: 'op must be has or has_not' }),
  tag: text('tag', 255),
});

const subscribedCondition = z.strictObject({ type: z.literal('subscribed'), value: z.boolean({ error: 'value must be true or false' }) });

const lastEngagedCondition = z.strictObject({
  type: z.literal('last_engaged'),
  op: z.enum(['within_days', 'not_within_days'], { error: 'op must be within_days or not_within_days' }),
  days,
});

const eventCondition = z.strictObject({
  type: z.literal('event'),
  event: text('event', 100),
  min_count: z.number({ error: 'min_count must be a number' }).int('min_count must be a whole number').min(1, 'min_count must be at least 1').max(1_000_000, 'min_count must be at most 1000000'),
  days,
});

const campaignCondition = z.strictObject({
  type: z.literal('campaign'),
  op: z.enum(['opened', 'clicked', 'not_opened', 'not_clicked'], { error: 'op must be one of opened, clicked, not_opened, not_clicked' }),
  campaign_id: z.number({ error: 'campaign_id must be a number' }).int('campaign_id must be a whole number').positive('campaign_id must be positive'),
});

const neverOpenedCondition = z.strictObject({ type: z.literal('never_opened') });

const CONDITIONS = {
  field: fieldCondition,
  property: propertyCondition,
  tag: tagCondition,
  subscribed: subscribedCondition,
  last_engaged: lastEngagedCondition,
  event: eventCondition,
  campaign: campaignCondition,
  never_opened: neverOpenedCondition,
} as const;

export type FieldCondition = z.output<typeof fieldCondition>;
export type PropertyCondition = z.output<typeof propertyCondition>;
export type SegmentCondition = { [K in keyof typeof CONDITIONS]: z.output<(typeof CONDITIONS)[K]> }[keyof typeof CONDITIONS];
export interface SegmentGroup {
  match: 'all' | 'any';
  conditions: Array<SegmentCondition | SegmentGroup>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One entry of a group: a condition when it has a `type`, else a group. Chosen by hand rather than
 * by a zod union, so a bad condition is answered with its own problem, not "matches no option".
 */
const node: z.ZodType<SegmentCondition | SegmentGroup> = z.lazy(() =>
  z.unknown().transform((value, ctx) => {
    const schema = isObject(value) && 'type' in value ? CONDITIONS[value.type as keyof typeof CONDITIONS] : group;
    if (!schema) {
      ctx.addIssue({ code: 'custom', message: `type must be one of ${Object.keys(CONDITIONS).join(', ')}`, path: ['type'] });
      return z.NEVER;
    }
    const parsed = (schema as z.ZodType<SegmentCondition | SegmentGroup>).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }),
);

const group: z.ZodType<SegmentGroup> = z.strictObject({
  match: z.enum(['all', 'any'], { error: 'match must be all or any' }),
  conditions: z.array(node, { error: 'conditions must be a list' }).min(1, 'conditions must hold at least one condition'),
});

/** How deep the groups nest and how many conditions the rule holds. */
function sizeOf(rule: SegmentGroup, depth = 1): { depth: number; conditions: number } {
  let deepest = depth;
  let conditions = 0;
  for (const entry of rule.conditions) {
    if ('match' in entry) {
      const inner = sizeOf(entry, depth + 1);
      deepest = Math.max(deepest, inner.depth);
      conditions += inner.conditions;
    } else conditions += 1;
  }
  return { depth: deepest, conditions };
}

/**
 * A segment's rule: a group of conditions and groups, `match` all or any, nested at most
 * MAX_RULE_DEPTH deep with at most MAX_RULE_CONDITIONS conditions (docs/segments.md).
 */
export const segmentRuleSchema: z.ZodType<SegmentGroup> = group.superRefine((rule, ctx) => {
  const size = sizeOf(rule);
  if (size.depth > MAX_RULE_DEPTH) ctx.addIssue({ code: 'custom', message: `rule nests groups ${size.depth} deep, at most ${MAX_RULE_DEPTH} allowed` });
  if (size.conditions > MAX_RULE_CONDITIONS) ctx.addIssue({ code: 'custom', message: `rule holds ${size.conditions} conditions, at most ${MAX_RULE_CONDITIONS} allowed` });
});
