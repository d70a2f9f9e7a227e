import { EmailRenderer } from '../../automation/src/domain/rendering/render-email';
import { validateWorkflows } from '../../automation/src/domain/workflows/validate-workflows';
import { documentOfForm, fieldErrorsOf, formOfBody, formOfDocument, type WorkflowForm } from '../src/entry-points/pages/workflows/workflow-form';

const blankStep = { id: 'step-9', type: 'email' as const, duration: '', subject: '', html: '', text: '' };

const form = (overrides: Partial<WorkflowForm> = {}): WorkflowForm => ({
  name: 'Welcome',
  event: 'signup',
  transactional: false,
  fallbacks: 'first_name=there\nvisits=3',
  conditions: [
    { property: '', op: 'eq', value: '' },
    { property: 'plan', op: 'eq', value: 'pro' },
  ],
  steps: [
    blankStep,
    { id: 'hello', type: 'email', duration: '', subject: 'Hi {{ first_name }}', html: '<p>Hi</p>', text: '' },
    { id: 'pause', type: 'wait', duration: '3 days', subject: '', html: '', text: '' },
  ],
  ...overrides,
});

/** The real validator's messages, placed on the form: the test fails if either side's paths change. */
const problemsOf = (value: WorkflowForm) => {
  const { document, problems, ...rows } = documentOfForm(value);
  const validation = validateWorkflows(document, new EmailRenderer());
  return fieldErrorsOf([...problems, ...(validation.ok ? [] : validation.errors)], rows);
};

describe('workflow form <-> workflow file', () => {
  it('leaves blank rows out, types numbers and booleans, and round-trips through the file format', () => {
    const { document } = documentOfForm(form({ steps: [form().steps[1]!, { ...form().steps[2]!, duration: '3d' }] }));
    expect(document).toEqual({
      name: 'Welcome',
      trigger: { event: 'signup', where: [{ property: 'plan', op: 'eq', value: 'pro' }] },
      transactional: false,
      fallbacks: { first_name: 'there', visits: 3 },
      steps: [
        { id: 'hello', type: 'email', subject: 'Hi {{ first_name }}', html: '<p>Hi</p>' },
        { id: 'pause', type: 'wait', duration: '3d' },
      ],
    });
    const validation = validateWorkflows(document, new EmailRenderer());
    expect(validation.ok).toBe(true);
    expect(documentOfForm(formOfDocument(document as never)).document).toEqual(document);
  });

  it('puts each of the validator\'s problems next to the form row it came from (blank rows shift the indices)', () => {
    const errors = problemsOf(
      form({
        conditions: [
          { property: '', op: 'eq', value: '' },
          { property: '', op: 'gt', value: '5' },
        ],
        steps: [blankStep, { id: 'bad id!', type: 'email', duration: '', subject: 'Hi {{ first_name', html: '<p>x</p>', text: '' }, form().steps[2]!],
        fallbacks: 'no equals sign',
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(['cond_1_property', 'fallbacks', 'step_1_id', 'step_2_duration']);
    expect(errors.step_2_duration!.join()).toMatch(/number and a unit/);
    expect(errors.fallbacks!.join()).toMatch(/line 1 must be name=value/);
    // Templates are parsed once the format holds: a broken one is named on its own field.
    const liquid = problemsOf(form({ steps: [blankStep, { ...form().steps[1]!, subject: 'Hi {{ first_name' }] }));
    expect(Object.keys(liquid)).toEqual(['step_1_subject']);
    expect(liquid.step_1_subject!.join()).toMatch(/invalid Liquid/);
  });

  it('names the missing name and event on their own fields, and a workflow without emails on the steps', () => {
    const errors = problemsOf(form({ name: '', event: '', steps: [{ ...form().steps[2]!, duration: '1d' }] }));
    expect(errors.name).toHaveLength(1);
    expect(errors.trigger_event).toHaveLength(1);
    expect(errors.steps!.join()).toMatch(/at least one email step/);
  });

  it('reads the posted fields back, row by row, and ignores anything past the rows it knows', () => {
    const posted = formOfBody({
      name: 'W',
      trigger_event: 'e',
      transactional: 'on',
      cond_0_property: 'p',
      cond_0_op: 'exists',
      cond_0_value: '',
      step_0_id: 's',
      step_0_type: 'wait',
      step_0_duration: '1h',
      step_2_id: 'skipped: step_1 is missing',
    });
    expect(posted.transactional).toBe(true);
    expect(posted.conditions).toEqual([{ property: 'p', op: 'exists', value: '' }]);
    expect(posted.steps).toEqual([{ id: 's', type: 'wait', duration: '1h', subject: '', html: '', text: '' }]);
    expect(documentOfForm(posted).document.trigger).toEqual({ event: 'e', where: [{ property: 'p', op: 'exists' }] });
  });
});
