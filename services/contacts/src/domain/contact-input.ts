import type { CustomProperties, CustomPropertyValue } from './contact';

/** Fields a client may write on create (already shape-checked by the entry point). */
export interface NewContactInput {
  email: string;
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  subscribed?: boolean | undefined;
  source?: string | null | undefined;
  tags?: string[] | undefined;
  custom_properties?: CustomProperties | undefined;
}

/** Fields a client may change; a custom property set to null is removed. */
export interface ContactChangesInput {
  email?: string | undefined;
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  subscribed?: boolean | undefined;
  source?: string | null | undefined;
  tags?: string[] | undefined;
  custom_properties?: Record<string, CustomPropertyValue | null> | undefined;
}

/** Case-insensitive de-duplication, keeping the first spelling given. */
export function distinctTags(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return [...seen.values()];
}

export function mergeCustomProperties(
  current: CustomProperties,
  changes: Record<string, CustomPropertyValue | null>,
): CustomProperties {
  // A Map, then fromEntries: a key such as "__proto__" stays an ordinary own property.
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

export function sameProperties(a: CustomProperties, b: CustomProperties): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}
