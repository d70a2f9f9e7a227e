/** Narrowing helpers for parsed YAML, so rules read fields without casts. */
export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const objectAt = (value: unknown, ...path: string[]): JsonObject | undefined => {
  const found = valueAt(value, ...path);
  return isObject(found) ? found : undefined;
};

export const arrayAt = (value: unknown, ...path: string[]): unknown[] => {
  const found = valueAt(value, ...path);
  return Array.isArray(found) ? found : [];
};

export const stringAt = (value: unknown, ...path: string[]): string | undefined => {
  const found = valueAt(value, ...path);
  return typeof found === 'string' ? found : typeof found === 'number' ? String(found) : undefined;
};

export function valueAt(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}
