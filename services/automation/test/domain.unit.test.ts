import { classifySmtpError } from '../src/data-access/smtp-mailer';
import { parseMailFrom } from '../src/mail-from';
import { nextStep } from '../src/domain/enrolment/next-step';
import { stepMessageId } from '../src/domain/sending/message-id';
import { signUnsubscribeToken, unsubscribeSecret, verifyUnsubscribeToken } from '../src/domain/unsubscribe/unsubscribe-token';
import { conditionHolds } from '../src/domain/workflows/match-conditions';
import { validateWorkflows } from '../src/domain/workflows/validate-workflows';
import { durationMs, workflowSchema } from '../src/domain/workflows/workflow-schema';
import { EmailRenderer } from '../src/domain/rendering/render-email';

describe('trigger conditions', () => {
  const holds = (op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists', value: string | number | boolean | undefined, properties: Record<string, unknown>) =>
    conditionHolds({ property: 'p', op, value }, properties);

  it('compares numbers as numbers, numeric strings included', () => {
    expect(holds('gte', 80, { p: 85 })).toBe(true);
    expect(holds('gte', 80, { p: 50 })).toBe(false);
    expect(holds('gt', 9, { p: '10' })).toBe(true); // as strings "10" < "9"
    expect(holds('lt', '100', { p: 20 })).toBe(true);
    expect(holds('eq', 5, { p: '5.0' })).toBe(true);
    expect(holds('lte', 5, { p: 5 })).toBe(true);
  });

  it('handles strings, booleans, neq and exists; a missing property fails every op but neq', () => {
    expect(holds('eq', 'trial', { p: 'trial' })).toBe(true);
    expect(holds('neq', 'trial', { p: 'pro' })).toBe(true);
    expect(holds('eq', true, { p: true })).toBe(true);
    expect(holds('gt', 1, { p: 'abc' })).toBe(false);
    expect(holds('exists', undefined, { p: 0 })).toBe(true);
    expect(holds('exists', undefined, { p: null })).toBe(false);
    expect(holds('exists', undefined, {})).toBe(false);
    expect(holds('gte', 1, {})).toBe(false);
    expect(holds('neq', 'trial', {})).toBe(true);
    expect(holds('eq', 'x', { ['__proto__']: 'x' })).toBe(false);
  });
});

describe('workflow format', () => {
  it('parses durations and finds the next email step after waits', () => {
    expect(durationMs('90s')).toBe(90_000);
    expect(durationMs('2d')).toBe(172_800_000);
    const workflow = workflowSchema.parse({
      name: 'w',
      trigger: { event: 'e' },
      steps: [
        { id: 'w1', type: 'wait', duration: '1m' },
        { id: 'a', type: 'email', subject: 's', text: 't' },
        { id: 'w2', type: 'wait', duration: '1h' },
        { id: 'w3', type: 'wait', duration: '30s' },
        { id: 'b', type: 'email', subject: 's', text: 't' },
      ],
    });
    expect(workflow.transactional).toBe(false);
    expect(nextStep(workflow, -1)).toEqual({ stepId: 'a', stepIndex: 1, kind: 'email', delayMs: 60_000 });
    expect(nextStep(workflow, 1)).toEqual({ stepId: 'b', stepIndex: 4, kind: 'email', delayMs: 3_630_000 });
    expect(nextStep(workflow, 4)).toBeUndefined();
    // A path that stops before "b" (a branch's other side) ends after the waits.
    expect(nextStep(workflow, 1, 'b')).toBeUndefined();
    expect(nextStep(workflow, -1, 'gone')).toEqual({ stepId: 'a', stepIndex: 1, kind: 'email', delayMs: 60_000 });
  });

  it('names each problem by its path in the document, which the account app places on its form fields', () => {
    const problems = (document: unknown) => {
      const validation = validateWorkflows(document, new EmailRenderer());
      return validation.ok ? [] : validation.errors;
    };
    expect(
      problems({
        name: '',
        trigger: { event: '', where: [{ property: '', op: 'gt', value: 5 }] },
        steps: [
          { id: 'bad id!', type: 'email', subject: 'Hi', html: '<p>x</p>' },
          { id: 'pause', type: 'wait', duration: '3 days' },
        ],
      }),
    ).toEqual([
      expect.stringMatching(/^name /),
      expect.stringMatching(/^trigger\.event /),
      expect.stringMatching(/^trigger\.where\.0\.property /),
      expect.stringMatching(/^steps\.0\.id /),
      expect.stringMatching(/^steps\.1\.duration must be a number and a unit/),
    ]);
    expect(problems({ name: 'w', trigger: { event: 'e' }, steps: [{ id: 'pause', type: 'wait', duration: '1d' }] })).toEqual([
      expect.stringMatching(/^steps a workflow needs at least one email step/),
    ]);
    expect(problems({ name: 'w', trigger: { event: 'e' }, steps: [{ id: 'a', type: 'email', subject: 'Hi {{ first_name', text: 't' }] })).toEqual([
      expect.stringMatching(/^steps\.0\.subject: invalid Liquid template: /),
    ]);
  });
});

describe('message ids, unsubscribe tokens, SMTP errors', () => {
  it('derives the same Message-ID for the same (account, contact, workflow, step) only', () => {
    const id = stepMessageId({ accountId: 1, contactId: 2, workflowId: 3, stepId: 'a' }, 'x.test');
    expect(id).toBe(stepMessageId({ accountId: 1, contactId: 2, workflowId: 3, stepId: 'a' }, 'x.test'));
    expect(id).not.toBe(stepMessageId({ accountId: 1, contactId: 2, workflowId: 3, stepId: 'b' }, 'x.test'));
    expect(id).toMatch(/^<[0-9a-f]{40}@x\.test>$/);
  });

  it('verifies its own tokens and refuses altered ones', () => {
    const secret = unsubscribeSecret(undefined, 'internal-signing-secret-0123456789abcdef');
    const token = signUnsubscribeToken({ accountId: 7, contactId: 42 }, secret);
    expect(verifyUnsubscribeToken(token, secret)).toEqual({ accountId: 7, contactId: 42 });
    expect(verifyUnsubscribeToken(token.replace('.42.', '.43.'), secret)).toBeUndefined();
    expect(verifyUnsubscribeToken(token, unsubscribeSecret('another-secret-that-is-32-chars-long!', 'x'))).toBeUndefined();
  });

  it('names the workflow step in a workflow email\'s link (a step id may hold dots), and a link without it still verifies', () => {
    const secret = unsubscribeSecret(undefined, 'internal-signing-secret-0123456789abcdef');
    const target = { accountId: 7, contactId: 42, workflowId: 9, stepId: 'day.2-welcome' };
    const token = signUnsubscribeToken(target, secret);
    expect(token).toMatch(/^w1\.7\.42\.9\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken(token, secret)).toEqual(target);
    expect(verifyUnsubscribeToken(token.replace('.9.', '.8.'), secret)).toBeUndefined();
    expect(verifyUnsubscribeToken(signUnsubscribeToken({ accountId: 7, contactId: 42 }, secret), secret)).toEqual({ accountId: 7, contactId: 42 });
  });

  it('classifies SMTP failures: 5xx at RCPT bounces, other 5xx is permanent, 4xx and no answer are transient', () => {
    expect(classifySmtpError({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', response: '550 no' }).kind).toBe('bounce');
    expect(classifySmtpError({ code: 'EMESSAGE', responseCode: 554, command: 'DATA', response: '554 spam' }).kind).toBe('permanent');
    expect(classifySmtpError({ code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' }).kind).toBe('transient');
    expect(classifySmtpError({ code: 'ECONNECTION', responseCode: 421, command: 'CONN' }).kind).toBe('transient');
    expect(classifySmtpError({ code: 'ESOCKET', command: 'CONN', message: 'connect ECONNREFUSED' }).kind).toBe('transient');
  });

  it('reads MAIL_FROM with or without a display name', () => {
    expect(parseMailFrom('Mailer <no-reply@x.test>')).toEqual({ name: 'Mailer', address: 'no-reply@x.test' });
    expect(parseMailFrom('no-reply@x.test')).toEqual({ address: 'no-reply@x.test' });
  });
});
