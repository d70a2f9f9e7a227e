import type { FieldCondition, PropertyCondition, SegmentCondition, SegmentGroup } from '../domain/segments/segment-rule';

/** A rule as one parameterised WHERE over `contacts c`, scoped to the account ($1). */
export interface SegmentSql {
  where: string;
  values: unknown[];
}

/** Collects the statement's values; each condition names its own by placeholder. */
class Params {
  readonly values: unknown[];
  constructor(accountId: number) {
    this.values = [accountId];
  }
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

const ACCOUNT = '$1::bigint';

/** A literal LIKE pattern: `%`, `_` and the escape character itself match only themselves. */
const likeLiteral = (value: string) => `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

function fieldSql(condition: FieldCondition, params: Params): string {
  // Addresses compare whatever their case, like the account's unique key on lower(email); the
  // contains form is served by the trigram index on lower(email).
  if (condition.field === 'email') {
    const lower = (value: string) => value.toLowerCase();
    switch (condition.op) {
      case 'eq': return `lower(c.email) = ${params.add(lower(condition.value as string), 'text')}`;
      case 'neq': return `lower(c.email) <> ${params.add(lower(condition.value as string), 'text')}`;
      case 'contains': return `lower(c.email) LIKE ${params.add(likeLiteral(lower(condition.value as string)), 'text')}`;
      case 'in': return `lower(c.email) = ANY(${params.add((condition.value as string[]).map(lower), 'text[]')})`;
      case 'exists': return 'true';
    }
  }
  const column = `c.${condition.field}`;
  switch (condition.op) {
    case 'eq': return `${column} = ${params.add(condition.value, 'text')}`;
    // A contact without the field is not equal to the value, so it is in.
    case 'neq': return `${column} IS DISTINCT FROM ${params.add(condition.value, 'text')}`;
    case 'contains': return `strpos(${column}, ${params.add(condition.value, 'text')}) > 0`;
    case 'in': return `${column} = ANY(${params.add(condition.value, 'text[]')})`;
    case 'exists': return `coalesce(${column}, '') <> ''`;
  }
}

/**
 * A stored property as a number: a JSON number, or a string that is a plain decimal (imports
 * store text). Anything else is NULL, so a non-numeric value never fails the cast, it just does
 * not match.
 */
const numericOf = (value: string) =>
  `(CASE jsonb_typeof(${value}) WHEN 'number' THEN (${value} #>> '{}')::numeric
     WHEN 'string' THEN CASE WHEN (${value} #>> '{}') ~ '^\\s*-?[0-9]{1,30}(\\.[0-9]{1,30})?\\s*$' THEN (${value} #>> '{}')::numeric END END)`;

function propertySql(condition: PropertyCondition, params: Params): string {
  const value = `(c.custom_properties -> ${params.add(condition.key, 'text')})`;
  const stringOf = `(CASE WHEN jsonb_typeof(${value}) = 'string' THEN ${value} #>> '{}' END)`;
  switch (condition.op) {
    case 'exists': return `${value} IS NOT NULL AND jsonb_typeof(${value}) <> 'null'`;
    case 'eq': return `${value} = ${params.add(JSON.stringify(condition.value), 'jsonb')}`;
    case 'neq': return `${value} IS DISTINCT FROM ${params.add(JSON.stringify(condition.value), 'jsonb')}`;
    case 'in': return `${value} = ANY(${params.add((condition.value as Array<string | number>).map((item) => JSON.stringify(item)), 'jsonb[]')})`;
    case 'contains': return `strpos(${stringOf}, ${params.add(condition.value, 'text')}) > 0`;
    case 'lt':
    case 'gt': {
      const operator = condition.op === 'lt' ? '<' : '>';
      return typeof condition.value === 'number'
        ? `${numericOf(value)} ${operator} ${params.add(condition.value, 'numeric')}`
        : `${stringOf} ${operator} ${params.add(condition.value, 'text')}`;
    }
  }
}

/**
 * The contact is (or is not) among the ids a subquery lists. Wrapped in IS [NOT] TRUE so the
 * planner keeps it a hashed subplan (built once, probed per contact) instead of pulling it up
 * into a join: every rule is then one scan of the account's contacts, the same plan for `all` as
 * for `any`. As joins, one misestimate reordered them into nested loops (at 100k contacts a
 * five-condition `all` took 300 ms, the hashed form 60 ms).
 */
const memberOf = (ids: string, wanted: boolean) => `(c.id IN (${ids})) IS ${wanted ? '' : 'NOT '}TRUE`;

/** One condition; the history conditions read their own tables' keys. */
function conditionSql(condition: SegmentCondition, params: Params): string {
  switch (condition.type) {
    case 'field': return fieldSql(condition, params);
    case 'property': return propertySql(condition, params);
    case 'tag':
      // The tag's id first (names are unique per account): its links are one range of the tag index.
      return memberOf(
        `SELECT ct.contact_id FROM contact_tags ct
          WHERE ct.tag_id = (SELECT t.id FROM tags t WHERE t.account_id = ${ACCOUNT} AND lower(t.name) = lower(${params.add(condition.tag, 'text')}))`,
        condition.op === 'has',
      );
    case 'subscribed': return `c.subscribed = ${params.add(condition.value, 'boolean')}`;
    case 'last_engaged': {
      const within = `c.last_engaged_at >= now() - make_interval(days => ${params.add(condition.days, 'int')})`;
      return condition.op === 'within_days' ? within : `NOT coalesce(${within}, false)`;
    }
    case 'event':
      // The window is the D calendar days (UTC) ending today, the granularity the history keeps.
      return memberOf(
        `SELECT d.contact_id FROM contact_event_days d
          WHERE d.account_id = ${ACCOUNT} AND d.event = ${params.add(condition.event, 'text')}
            AND d.day > (now() AT TIME ZONE 'UTC')::date - ${params.add(condition.days, 'int')}
          GROUP BY d.contact_id HAVING sum(d.count) >= ${params.add(condition.min_count, 'int')}`,
        true,
      );
    case 'campaign': {
      const clicked = condition.op === 'clicked' || condition.op === 'not_clicked' ? ' AND e.first_clicked_at IS NOT NULL' : '';
      return memberOf(
        `SELECT e.contact_id FROM contact_engagements e
          WHERE e.account_id = ${ACCOUNT} AND e.campaign_id = ${params.add(condition.campaign_id, 'bigint')}${clicked}`,
        condition.op === 'opened' || condition.op === 'clicked',
      );
    }
    case 'never_opened':
      // Every engagement row is a reader's open or click (machine hits write none).
      return memberOf(`SELECT e.contact_id FROM contact_engagements e WHERE e.account_id = ${ACCOUNT}`, false);
  }
}

function groupSql(group: SegmentGroup, params: Params): string {
  const parts = group.conditions.map((entry) => ('match' in entry ? groupSql(entry, params) : conditionSql(entry, params)));
  return `(${parts.join(group.match === 'all' ? ' AND ' : ' OR ')})`;
}

/** The account's contacts the rule selects, as a WHERE for `FROM contacts c` (values from $1). */
export function segmentSql(accountId: number, rule: SegmentGroup): SegmentSql {
  const params = new Params(accountId);
  const condition = groupSql(rule, params);
  return { where: `c.account_id = ${ACCOUNT} AND ${condition}`, values: params.values };
}
