import type { WorkflowDocument } from '../../../data-access/automation.client';

/** How many empty rows the form offers beyond what the workflow has (saving adds more). */
const SPARE_STEPS = 2;
const SPARE_CONDITIONS = 1;
export const CONDITION_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;

export interface ConditionRow {
  property: string;
  op: string;
  value: string;
}

export const STEP_TYPES = ['email', 'wait', 'branch'] as const;

export interface StepRow {
  id: string;
  type: (typeof STEP_TYPES)[number];
  duration: string;
  subject: string;
  html: string;
  text: string;
  /** A branch step's: the email step asked about, how long after its sending a click counts, where each side goes. */
  clicked: string;
  within: string;
  then: string;
  else: string;
}

/** The form as the person filled it in: strings only, so it can be shown again unchanged. */
export interface WorkflowForm {
  name: string;
  event: string;
  transactional: boolean;
  fallbacks: string;
  conditions: ConditionRow[];
  steps: StepRow[];
}

const blankCondition = (): ConditionRow => ({ property: '', op: 'eq', value: '' });
const noStepFields = { duration: '', subject: '', html: '', text: '', clicked: '', within: '', then: '', else: '' };
const blankStep = (index: number): StepRow => ({ ...noStepFields, id: `step-${index + 1}`, type: 'email' });

/** The form rows, with spare empty rows at the end for adding conditions and steps. */
export function withSpareRows(form: WorkflowForm): WorkflowForm {
  const conditions = [...form.conditions, ...Array.from({ length: SPARE_CONDITIONS }, blankCondition)];
  const steps = [...form.steps];
  for (let i = 0; i < SPARE_STEPS; i += 1) steps.push(blankStep(steps.length));
  return { ...form, conditions, steps };
}

const scalarText = (value: string | number | boolean | undefined) => (value === undefined ? '' : String(value));

export function formOfDocument(document: WorkflowDocument): WorkflowForm {
  return {
    name: document.name,
    event: document.trigger.event,
    transactional: document.transactional ?? false,
    fallbacks: Object.entries(document.fallbacks ?? {})
      .map(([key, value]) => `${key}=${String(value)}`)
      .join('\n'),
    conditions: (document.trigger.where ?? []).map((c) => ({ property: c.property, op: c.op, value: scalarText(c.value) })),
    steps: document.steps.map((step): StepRow => {
      if (step.type === 'wait') return { ...noStepFields, id: step.id, type: 'wait', duration: step.duration };
      if (step.type === 'branch') {
        return { ...noStepFields, id: step.id, type: 'branch', clicked: step.if.clicked, within: step.if.within, then: step.then, else: step.else ?? '' };
      }
      return { ...noStepFields, id: step.id, type: 'email', subject: step.subject, html: step.html ?? '', text: step.text ?? '' };
    }),
  };
}

export const emptyForm = (): WorkflowForm => ({ name: '', event: '', transactional: false, fallbacks: '', conditions: [], steps: [] });

const str = (body: Record<string, unknown>, key: string) => {
  const value = body[key];
  return typeof value === 'string' ? value : '';
};

const MAX_ROWS = 60;

/** Reads the posted form (urlencoded `cond_N_*`, `step_N_*` fields) back into rows. */
export function formOfBody(body: Record<string, unknown>): WorkflowForm {
  const conditions: ConditionRow[] = [];
  const steps: StepRow[] = [];
  for (let i = 0; i < MAX_ROWS && `cond_${i}_property` in body; i += 1) {
    conditions.push({ property: str(body, `cond_${i}_property`), op: str(body, `cond_${i}_op`) || 'eq', value: str(body, `cond_${i}_value`) });
  }
  for (let i = 0; i < MAX_ROWS && `step_${i}_id` in body; i += 1) {
    const type = STEP_TYPES.find((known) => known === str(body, `step_${i}_type`)) ?? 'email';
    const field = (part: keyof typeof noStepFields) => str(body, `step_${i}_${part}`);
    steps.push({
      id: str(body, `step_${i}_id`),
      type,
      duration: field('duration'),
      subject: field('subject'),
      html: field('html'),
      text: field('text'),
      clicked: field('clicked'),
      within: field('within'),
      then: field('then'),
      else: field('else'),
    });
  }
  return { name: str(body, 'name'), event: str(body, 'trigger_event'), transactional: body.transactional === 'on', fallbacks: str(body, 'fallbacks'), conditions, steps };
}

/**
 * A value typed in a form is text; numbers and true/false become JSON numbers and booleans, which
 * is what a workflow file would say (conditions compare "85" and 85 alike anyway).
 */
function typed(value: string): string | number | boolean {
  const trimmed = value.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  if (/^-?\d{1,15}(\.\d{1,15})?$/.test(trimmed)) return Number(trimmed);
  return value;
}

/** A row with nothing typed in it (its id and kind are prefilled). */
const isBlankStep = (step: StepRow) => Object.keys(noStepFields).every((part) => !step[part as keyof typeof noStepFields].trim());

/**
 * The workflow file the form describes (automation validates it), and for each of its conditions
 * and steps the form row it came from (blank rows are left out), so that a problem at
 * `steps.1.subject` is shown next to the right field. Fallback lines that are not `key=value`
 * are reported here, in the same path form.
 */
export function documentOfForm(form: WorkflowForm): { document: Record<string, unknown>; conditionRows: number[]; stepRows: number[]; problems: string[] } {
  const conditionRows: number[] = [];
  const stepRows: number[] = [];
  const problems: string[] = [];
  const where = form.conditions.flatMap((c, row) => {
    if (!c.property.trim() && !c.value.trim()) return [];
    conditionRows.push(row);
    return [c.op === 'exists' ? { property: c.property.trim(), op: c.op } : { property: c.property.trim(), op: c.op, value: typed(c.value) }];
  });
  const steps = form.steps.flatMap((s, row): Array<Record<string, unknown>> => {
    if (isBlankStep(s)) return [];
    stepRows.push(row);
    if (s.type === 'wait') return [{ id: s.id.trim(), type: 'wait', duration: s.duration.trim() }];
    if (s.type === 'branch') {
      const otherwise = s.else.trim() ? { else: s.else.trim() } : {};
      return [{ id: s.id.trim(), type: 'branch', if: { clicked: s.clicked.trim(), within: s.within.trim() }, then: s.then.trim(), ...otherwise }];
    }
    return [{ id: s.id.trim(), type: 'email', subject: s.subject, ...(s.html.trim() ? { html: s.html } : {}), ...(s.text.trim() ? { text: s.text } : {}) }];
  });
  const fallbacks: Record<string, string | number | boolean> = {};
  form.fallbacks.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim()) return;
    const at = line.indexOf('=');
    if (at < 1) problems.push(`fallbacks: line ${index + 1} must be name=value`);
    else fallbacks[line.slice(0, at).trim()] = typed(line.slice(at + 1).trim());
  });
  const document = {
    name: form.name,
    trigger: { event: form.event.trim(), ...(where.length > 0 ? { where } : {}) },
    transactional: form.transactional,
    fallbacks,
    steps,
  };
  return { document, conditionRows, stepRows, problems };
}

/** Problems by form field (`name`, `trigger_event`, `cond_2_value`, `step_1_subject`, …); `form` for the rest. */
export type FieldErrors = Record<string, string[]>;

/**
 * Places each of automation's messages (`steps.1.subject: …`, `trigger.where.0.value …`) next to
 * its field, translating document indices back to form rows.
 */
export function fieldErrorsOf(messages: string[], rows: { conditionRows: number[]; stepRows: number[] }): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const message of messages) {
    const match = /^([A-Za-z_]+(?:\.[A-Za-z0-9_]+)*):?\s+(.*)$/s.exec(message);
    const path = match?.[1]?.split('.') ?? [];
    const text = match?.[2] ?? message;
    if (path[0] === 'name') add('name', text);
    else if (path[0] === 'trigger' && path[1] === 'event') add('trigger_event', text);
    else if (path[0] === 'trigger' && path[1] === 'where' && path[2] !== undefined) {
      const row = rows.conditionRows[Number(path[2])];
      add(row === undefined ? 'conditions' : `cond_${row}_${path[3] ?? 'property'}`, text);
    } else if (path[0] === 'trigger') add('conditions', text);
    else if (path[0] === 'fallbacks') add('fallbacks', text);
    else if (path[0] === 'steps' && path[1] !== undefined && /^\d+$/.test(path[1])) {
      const row = rows.stepRows[Number(path[1])];
      // A branch's condition is `if.clicked` / `if.within` in the file, one field each in the form.
      const named = path[2] === 'if' ? path[3] : path[2];
      const part = named && ['id', 'type', 'duration', 'subject', 'html', 'text', 'clicked', 'within', 'then', 'else'].includes(named) ? named : 'id';
      add(row === undefined ? 'steps' : `step_${row}_${part}`, text);
    } else if (path[0] === 'steps') add('steps', text);
    else add('form', message);
  }
  return errors;
}
