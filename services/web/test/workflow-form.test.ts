import { documentOfForm, fieldErrorsOf, formOfBody, formOfDocument, type WorkflowForm } from '../src/entry-points/pages/workflows/workflow-form';

const noFields = { duration: '', subject: '', html: '', text: '', clicked: '', within: '', then: '', else: '' };
const blankStep = { ...noFields, id: 'step-9', type: 'email' as const };

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
    { ...noFields, id: 'hello', type: 'email', subject: 'Hi {{ first_name }}', html: '<p>Hi</p>' },
    { ...noFields, id: 'pause', type: 'wait', duration: '3 days' },
  ],
  ...overrides,
});

/**
 * The form's own problems and automation's refusal of the document it gives, placed on the form.
 * `refused` is what automation answers, in its form: each problem prefixed with its path in the
 * document (`steps.1.subject: …`); automation's own tests pin those paths.
 */
const problemsOf = (value: WorkflowForm, refused: string[] = []) => {
  const { problems, ...rows } = documentOfForm(value);
  return fieldErrorsOf([...problems, ...refused], rows);
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
    expect(documentOfForm(formOfDocument(document as never)).document).toEqual(document);
  });

  it("puts each of automation's problems next to the form row it came from (blank rows shift the indices)", () => {
    const errors = problemsOf(
      form({
        conditions: [
          { property: '', op: 'eq', value: '' },
          { property: '', op: 'gt', value: '5' },
        ],
        steps: [blankStep, { ...noFields, id: 'bad id!', type: 'email', subject: 'Hi', html: '<p>x</p>' }, form().steps[2]!],
        fallbacks: 'no equals sign',
      }),
      [
        'trigger.where.0.property Too small: expected string to have >=1 characters',
        'steps.0.id must be 1 to 64 letters, digits, dots, dashes or underscores',
        'steps.1.duration must be a number and a unit: s, m, h or d (e.g. "2d")',
      ],
    );
    expect(Object.keys(errors).sort()).toEqual(['cond_1_property', 'fallbacks', 'step_1_id', 'step_2_duration']);
    expect(errors.cond_1_property!.join()).toMatch(/^Too small/);
    expect(errors.step_1_id!.join()).toMatch(/^must be 1 to 64/);
    expect(errors.step_2_duration!.join()).toMatch(/number and a unit/);
    expect(errors.fallbacks!.join()).toMatch(/line 1 must be name=value/);
    // A template problem names the part of the step: it goes on that field, its "path:" left off.
    const liquid = problemsOf(form({ steps: [blankStep, { ...form().steps[1]!, subject: 'Hi {{ first_name' }] }), [
      'steps.0.subject: invalid Liquid template: output "{{ first_name" not closed, line:1, col:4',
    ]);
    expect(liquid).toEqual({ step_1_subject: ['invalid Liquid template: output "{{ first_name" not closed, line:1, col:4'] });
  });

  it('names the missing name and event on their own fields, a workflow without emails on the steps, anything else on the form', () => {
    const errors = problemsOf(form({ name: '', event: '', steps: [{ ...form().steps[2]!, duration: '1d' }] }), [
      'name Too small: expected string to have >=1 characters',
      'trigger.event Too small: expected string to have >=1 characters',
      'steps a workflow needs at least one email step',
      'the file holds no workflow',
    ]);
    expect(errors.name).toHaveLength(1);
    expect(errors.trigger_event).toHaveLength(1);
    expect(errors.steps!.join()).toMatch(/at least one email step/);
    expect(errors.form).toEqual(['the file holds no workflow']);
  });

  it('places nothing when the form is complete and automation takes it', () => {
    expect(problemsOf(form())).toEqual({});
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
    expect(posted.steps).toEqual([{ ...noFields, id: 's', type: 'wait', duration: '1h' }]);
    expect(documentOfForm(posted).document.trigger).toEqual({ event: 'e', where: [{ property: 'p', op: 'exists' }] });
  });

  describe('a branch step', () => {
    const branchForm = (otherwise: string) =>
      form({
        steps: [
          form().steps[1]!,
          { ...noFields, id: 'clicked', type: 'branch', clicked: ' hello ', within: '2d', then: 'thanks', else: otherwise },
          { ...noFields, id: 'thanks', type: 'email', subject: 'Thanks', text: 't' },
        ],
      });

    it('becomes the file\'s {type: branch, if: {clicked, within}, then, else}, without else when it is left empty, and reads back the same', () => {
      const { document } = documentOfForm(branchForm('thanks-not'));
      const steps = document.steps as Array<Record<string, unknown>>;
      expect(steps[1]).toEqual({ id: 'clicked', type: 'branch', if: { clicked: 'hello', within: '2d' }, then: 'thanks', else: 'thanks-not' });
      expect(documentOfForm(formOfDocument(document as never)).document).toEqual(document);
      expect((documentOfForm(branchForm('')).document.steps as Array<Record<string, unknown>>)[1]).toEqual({
        id: 'clicked',
        type: 'branch',
        if: { clicked: 'hello', within: '2d' },
        then: 'thanks',
      });
    });

    it('is read from the posted fields, an unknown kind taken as an email', () => {
      const posted = formOfBody({
        step_0_id: 'b',
        step_0_type: 'branch',
        step_0_clicked: 'hello',
        step_0_within: '1h',
        step_0_then: 'x',
        step_0_else: 'y',
        step_1_id: 'odd',
        step_1_type: 'teleport',
        step_1_subject: 'S',
      });
      expect(posted.steps).toEqual([
        { ...noFields, id: 'b', type: 'branch', clicked: 'hello', within: '1h', then: 'x', else: 'y' },
        { ...noFields, id: 'odd', type: 'email', subject: 'S' },
      ]);
    });

    it("places automation's problems with if.clicked, if.within, then and else on their own fields", () => {
      const errors = problemsOf(branchForm('nope'), [
        'steps.1.if.clicked must name an email step before the branch ("x": no step has that id)',
        'steps.1.if.within: must be a number and a unit: s, m, h or d (e.g. "2d")',
        'steps.1.then must name a step after the branch ("hello" is not after it)',
        'steps.1.else must name a step of this workflow (no step has the id "nope")',
      ]);
      expect(Object.keys(errors).sort()).toEqual(['step_1_clicked', 'step_1_else', 'step_1_then', 'step_1_within']);
      expect(errors.step_1_within).toEqual(['must be a number and a unit: s, m, h or d (e.g. "2d")']);
    });
  });
});
