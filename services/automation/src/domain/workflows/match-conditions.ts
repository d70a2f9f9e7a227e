import type { Condition } from './workflow-schema';

const asNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
};

/** Compares as numbers when both sides are numeric ("85" and 80 included), else as strings. */
function compare(actual: unknown, expected: unknown): number | undefined {
  const [a, b] = [asNumber(actual), asNumber(expected)];
  if (a !== undefined && b !== undefined) return a === b ? 0 : a < b ? -1 : 1;
  if (typeof actual === 'string' && typeof expected === 'string') return actual === expected ? 0 : actual < expected ? -1 : 1;
  return undefined;
}

export function conditionHolds(condition: Condition, properties: Record<string, unknown>): boolean {
  const present = Object.prototype.hasOwnProperty.call(properties, condition.property);
  const actual = present ? properties[condition.property] : undefined;
  if (condition.op === 'exists') return actual !== undefined && actual !== null;
  // A missing property is "not equal" to anything, and fails every other comparison.
  if (actual === undefined || actual === null) return condition.op === 'neq';
  const order = compare(actual, condition.value);
  switch (condition.op) {
    case 'eq':
      return order === 0 || actual === condition.value;
    case 'neq':
      return !(order === 0 || actual === condition.value);
    case 'gt':
      return order !== undefined && order > 0;
    case 'gte':
      return order !== undefined && order >= 0;
    case 'lt':
      return order !== undefined && order < 0;
    case 'lte':
      return order !== undefined && order <= 0;
  }
}

/** The first condition that fails (for the delivery log), or undefined when all hold. */
export function firstFailedCondition(conditions: Condition[] | undefined, properties: Record<string, unknown>): Condition | undefined {
  return (conditions ?? []).find((condition) => !conditionHolds(condition, properties));
}

export const describeCondition = (c: Condition) =>
  c.op === 'exists' ? `${c.property} exists` : `${c.property} ${c.op} ${JSON.stringify(c.value)}`;
