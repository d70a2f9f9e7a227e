import type { Segment, SegmentCondition, SegmentGroup } from '../../../data-access/segments.client';

export const CONDITION_TYPES = [
  { type: 'tag', label: 'Tag' },
  { type: 'field', label: 'Contact field' },
  { type: 'property', label: 'Custom property' },
  { type: 'subscribed', label: 'Subscription' },
  { type: 'last_engaged', label: 'Last engaged' },
  { type: 'event', label: 'Product event' },
  { type: 'campaign', label: 'Campaign engagement' },
  { type: 'never_opened', label: 'Never opened' },
] as const;

export type ConditionType = (typeof CONDITION_TYPES)[number]['type'];
/** A row of the flat form: a condition of one type, or a nested group kept as it is (made through the API). */
export type RowType = ConditionType | 'group';

/** One condition as typed (strings), so a refused form comes back unchanged. */
export interface ConditionRow {
  type: RowType;
  field: string;
  key: string;
  op: string;
  value: string;
  tag: string;
  event: string;
  minCount: string;
  days: string;
  campaignId: string;
  /** A nested group's JSON, carried through the form untouched. */
  group: string;
}

export interface SegmentForm {
  name: string;
  match: 'all' | 'any';
  rows: ConditionRow[];
}

/** The operator a row of each type starts with. */
const FIRST_OP: Record<RowType, string> = {
  tag: 'has',
  field: 'eq',
  property: 'eq',
  subscribed: '',
  last_engaged: 'within_days',
  event: '',
  campaign: 'opened',
  never_opened: '',
  group: '',
};

const isRowType = (value: string): value is RowType =>
  value === 'group' || CONDITION_TYPES.some((entry) => entry.type === value);

export const emptyRow = (type: RowType): ConditionRow => ({
  type,
  field: 'email',
  key: '',
  op: FIRST_OP[type],
  value: type === 'subscribed' ? 'true' : '',
  tag: '',
  event: '',
  minCount: '1',
  days: '30',
  campaignId: '',
  group: '',
});

export const emptySegmentForm = (): SegmentForm => ({ name: '', match: 'all', rows: [] });

/** Rows beyond this are ignored: contacts refuses a rule of more than 50 conditions anyway. */
const MAX_ROWS = 50;

/** The posted form: `name`, `match`, and per row `c.<n>.<field>` (n = 0, 1, …). */
export function formOfBody(body: Record<string, unknown>): SegmentForm {
  const str = (name: string) => (typeof body[name] === 'string' ? body[name] : '');
  const rows: ConditionRow[] = [];
  for (let index = 0; index < MAX_ROWS; index += 1) {
    const type = str(`c.${index}.type`);
    if (!type) break;
    if (!isRowType(type)) continue;
    const at = (name: string) => str(`c.${index}.${name}`);
    rows.push({
      type,
      field: at('field'),
      key: at('key'),
      op: at('op'),
      value: at('value'),
      tag: at('tag'),
      event: at('event'),
      minCount: at('min_count'),
      days: at('days'),
      campaignId: at('campaign_id'),
      group: at('group'),
    });
  }
  return { name: str('name').trim(), match: str('match') === 'any' ? 'any' : 'all', rows };
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
/** A number the service can check: an empty or non-numeric entry goes as null, which it refuses by name. */
const numberOf = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? null : Number(text));
/** A property's value as typed: true/false as booleans, numerals as numbers, anything else text. */
const scalarOf = (text: string): string | number | boolean => {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : text;
};

/** A nested group as carried in the form; anything unreadable goes as an empty object for contacts to refuse. */
function parsedGroup(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The row as the rule's JSON; the contacts service validates it (the form never second-guesses it). */
function conditionOf(row: ConditionRow): SegmentCondition | SegmentGroup | Record<string, unknown> {
  switch (row.type) {
    case 'tag':
      return { type: 'tag', op: row.op, tag: row.tag.trim() };
    case 'field':
      return {
        type: 'field',
        field: row.field,
        op: row.op,
        ...(row.op === 'exists' ? {} : { value: row.op === 'in' ? list(row.value) : row.value }),
      };
    case 'property': {
      const value =
        row.op === 'in'
          ? list(row.value).map((item) => {
              const scalar = scalarOf(item);
              return typeof scalar === 'boolean' ? item : scalar;
            })
          : row.op === 'contains'
            ? row.value
            : scalarOf(row.value);
      return { type: 'property', key: row.key.trim(), op: row.op, ...(row.op === 'exists' ? {} : { value }) };
    }
    case 'subscribed':
      return { type: 'subscribed', value: row.value !== 'false' };
    case 'last_engaged':
      return { type: 'last_engaged', op: row.op, days: numberOf(row.days) };
    case 'event':
      return {
        type: 'event',
        event: row.event.trim(),
        min_count: numberOf(row.minCount),
        days: numberOf(row.days),
      };
    case 'campaign':
      return { type: 'campaign', op: row.op, campaign_id: numberOf(row.campaignId) };
    case 'never_opened':
      return { type: 'never_opened' };
    case 'group':
      return parsedGroup(row.group);
  }
}

/** The rule the form describes (the plan's JSON), or undefined while it has no condition. */
export function ruleOfForm(form: SegmentForm): SegmentGroup | undefined {
  if (form.rows.length === 0) return undefined;
  return { match: form.match, conditions: form.rows.map(conditionOf) as SegmentGroup['conditions'] };
}

const text = (value: unknown) =>
  value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value);

function rowOf(entry: SegmentCondition | SegmentGroup): ConditionRow {
  if (!('type' in entry)) return { ...emptyRow('group'), group: JSON.stringify(entry) };
  const row = emptyRow(entry.type);
  switch (entry.type) {
    case 'tag':
      return { ...row, op: entry.op, tag: entry.tag };
    case 'field':
      return { ...row, field: entry.field, op: entry.op, value: text(entry.value) };
    case 'property':
      return { ...row, key: entry.key, op: entry.op, value: text(entry.value) };
    case 'subscribed':
      return { ...row, value: String(entry.value) };
    case 'last_engaged':
      return { ...row, op: entry.op, days: String(entry.days) };
    case 'event':
      return { ...row, event: entry.event, minCount: String(entry.min_count), days: String(entry.days) };
    case 'campaign':
      return { ...row, op: entry.op, campaignId: String(entry.campaign_id) };
    case 'never_opened':
      return row;
  }
}

export const formOfSegment = (segment: Segment): SegmentForm => ({
  name: segment.name,
  match: segment.rule.match,
  rows: segment.rule.conditions.map(rowOf),
});

/** Contacts' problems (`conditions.2.days days must be at least 1`) by row; the others for the whole form. */
export function problemsByRow(problems: string[]): { rows: Map<number, string[]>; form: string[] } {
  const rows = new Map<number, string[]>();
  const form: string[] = [];
  for (const problem of problems) {
    const match = /^conditions\.(\d+)(?:\.\S*)? (.*)$/s.exec(problem);
    if (match) rows.set(Number(match[1]), [...(rows.get(Number(match[1])) ?? []), match[2]!]);
    else form.push(problem);
  }
  return { rows, form };
}
