import { segmentRuleSchema } from '../src/domain/segments/segment-rule';
import { parsePreviewInput, parseSegmentInput } from '../src/domain/segments/segment-input';
import { AppError } from '@mailer/shared';

const all = (...conditions: unknown[]) => ({ match: 'all', conditions });
const valid = (rule: unknown) => segmentRuleSchema.safeParse(rule).success;
const problems = (rule: unknown) => {
  const parsed = segmentRuleSchema.safeParse(rule);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
};

describe('segment rule', () => {
  it.each([
    ['field eq', { type: 'field', field: 'email', op: 'eq', value: 'a@b.test' }],
    ['field in', { type: 'field', field: 'source', op: 'in', value: ['api', 'import'] }],
    ['field exists', { type: 'field', field: 'first_name', op: 'exists' }],
    ['property number lt', { type: 'property', key: 'plan_seats', op: 'lt', value: 5 }],
    ['property boolean eq', { type: 'property', key: 'trial', op: 'eq', value: true }],
    ['property in', { type: 'property', key: 'plan', op: 'in', value: ['pro', 3] }],
    ['property contains', { type: 'property', key: 'company', op: 'contains', value: 'Acme' }],
    ['tag', { type: 'tag', op: 'has_not', tag: 'vip' }],
    ['subscribed', { type: 'subscribed', value: true }],
    ['last_engaged', { type: 'last_engaged', op: 'not_within_days', days: 30 }],
    ['event', { type: 'event', event: 'login', min_count: 3, days: 7 }],
    ['campaign', { type: 'campaign', op: 'not_clicked', campaign_id: 12 }],
    ['never_opened', { type: 'never_opened' }],
  ])('accepts a %s condition', (_name, condition) => {
    expect(problems(all(condition))).toEqual([]);
  });

  it('accepts groups nested three deep', () => {
    expect(valid(all({ match: 'any', conditions: [all({ type: 'never_opened' }), { type: 'subscribed', value: false }] }))).toBe(true);
  });

  it.each([
    ['an unknown type', all({ type: 'colour' }), 'conditions.0.type type must be one of field, property, tag, subscribed, last_engaged, event, campaign, never_opened'],
    ['an unknown field', all({ type: 'field', field: 'phone', op: 'eq', value: 'x' }), 'conditions.0.field field must be one of email, first_name, last_name, source'],
    ['eq without a value', all({ type: 'field', field: 'email', op: 'eq' }), 'conditions.0.value value must be a string for op eq'],
    ['in with one string', all({ type: 'field', field: 'email', op: 'in', value: 'x' }), 'conditions.0.value value must be a non-empty list of at most 1000 strings for op in'],
    ['exists with a value', all({ type: 'property', key: 'k', op: 'exists', value: 1 }), 'conditions.0.value value must be absent for op exists'],
    ['contains with a number', all({ type: 'property', key: 'k', op: 'contains', value: 1 }), 'conditions.0.value value must be a string for op contains'],
    ['an empty tag', all({ type: 'tag', op: 'has', tag: '' }), 'conditions.0.tag tag must not be empty'],
    ['days of zero', all({ type: 'event', event: 'login', min_count: 1, days: 0 }), 'conditions.0.days days must be at least 1'],
    ['a fractional count', all({ type: 'event', event: 'login', min_count: 1.5, days: 3 }), 'conditions.0.min_count min_count must be a whole number'],
    ['a bad campaign op', all({ type: 'campaign', op: 'bounced', campaign_id: 1 }), 'conditions.0.op op must be one of opened, clicked, not_opened, not_clicked'],
    ['an extra key', all({ type: 'never_opened', since: 3 }), 'conditions.0 Unrecognized key: "since"'],
    ['a bad match', { match: 'some', conditions: [{ type: 'never_opened' }] }, 'match match must be all or any'],
    ['an empty group', all(), 'conditions conditions must hold at least one condition'],
    ['groups four deep', all(all(all(all({ type: 'never_opened' })))), ' rule nests groups 4 deep, at most 3 allowed'],
    ['51 conditions', all(...Array.from({ length: 51 }, () => ({ type: 'never_opened' }))), ' rule holds 51 conditions, at most 50 allowed'],
  ])('refuses %s, naming where', (_name, rule, message) => {
    expect(problems(rule)).toContain(message);
  });
});

describe('segment input', () => {
  it('answers an invalid rule with SEGMENT.INVALID, its first problem and each with its path', () => {
    let error: unknown;
    try {
      parsePreviewInput({ rule: all({ type: 'tag', op: 'has' }) });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('SEGMENT.INVALID');
    expect((error as AppError).details).toEqual({
      error: 'rule.conditions.0.tag tag must be a string',
      details: [{ path: 'rule.conditions.0.tag', message: 'tag must be a string' }],
    });
  });

  it('trims the name and refuses an empty one', () => {
    expect(parseSegmentInput({ name: ' VIPs ', rule: all({ type: 'never_opened' }) }).name).toBe('VIPs');
    expect(() => parseSegmentInput({ name: ' ', rule: all({ type: 'never_opened' }) })).toThrow('name name must not be empty');
  });
});
