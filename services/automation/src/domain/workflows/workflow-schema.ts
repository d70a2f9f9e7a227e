import { z } from 'zod';
import { branchProblems } from './branch-rules';

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const CONDITION_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;

const condition = z
  .strictObject({
    property: z.string().min(1).max(100),
    op: z.enum(CONDITION_OPS),
    value: scalar.optional(),
  })
  .refine((c) => c.op === 'exists' || c.value !== undefined, { message: 'value is required unless op is exists', path: ['value'] });

const stepId = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores');

const emailStep = z
  .strictObject({
    id: stepId,
    type: z.literal('email'),
    subject: z.string().min(1).max(998),
    html: z.string().max(256 * 1024).optional(),
    text: z.string().max(256 * 1024).optional(),
  })
  .refine((s) => s.html !== undefined || s.text !== undefined, { message: 'an email step needs html or text', path: ['html'] });

export const DURATION = /^(\d{1,6})(s|m|h|d)$/;

const durationText = z.string().regex(DURATION, 'must be a number and a unit: s, m, h or d (e.g. "2d")');

const waitStep = z.strictObject({
  id: stepId,
  type: z.literal('wait'),
  duration: durationText,
});

/**
 * Goes on at `then` when the contact clicked the email of step `if.clicked` (earlier in the
 * workflow) within `if.within` of its sending, else at `else`, or ends there without one.
 */
const branchStep = z.strictObject({
  id: stepId,
  type: z.literal('branch'),
  if: z.strictObject({ clicked: stepId, within: durationText }),
  then: stepId,
  else: stepId.optional(),
});

/** The workflow file format (docs/workflows.md), validated whole. */
export const workflowSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    trigger: z.strictObject({
      event: z.string().min(1).max(100),
      where: z.array(condition).max(50).optional(),
    }),
    transactional: z.boolean().default(false),
    fallbacks: z.record(z.string().min(1).max(100), scalar).default({}),
    steps: z.array(z.discriminatedUnion('type', [emailStep, waitStep, branchStep])).min(1).max(50),
  })
  .superRefine((workflow, ctx) => {
    const seen = new Set<string>();
    workflow.steps.forEach((step, index) => {
      if (seen.has(step.id)) ctx.addIssue({ code: 'custom', message: `duplicate step id "${step.id}"`, path: ['steps', index, 'id'] });
      seen.add(step.id);
    });
    if (!workflow.steps.some((step) => step.type === 'email')) {
      ctx.addIssue({ code: 'custom', message: 'a workflow needs at least one email step', path: ['steps'] });
    }
    workflow.steps.forEach((step, index) => {
      if (step.type !== 'branch') return;
      for (const problem of branchProblems(workflow.steps, index, step)) ctx.addIssue({ code: 'custom', ...problem });
    });
  });

export type Workflow = z.output<typeof workflowSchema>;
export type WorkflowStep = Workflow['steps'][number];
export type EmailStep = Extract<WorkflowStep, { type: 'email' }>;
export type BranchStep = Extract<WorkflowStep, { type: 'branch' }>;
export type Condition = NonNullable<Workflow['trigger']['where']>[number];

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function durationMs(duration: string): number {
  const match = DURATION.exec(duration);
  if (!match) throw new Error(`invalid duration ${duration}`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
