import { MissingValue } from './liquid-engine';

export interface ScopeContact {
  email: string;
  first_name: string | null;
  last_name: string | null;
  tags: string[];
  custom_properties: Record<string, unknown>;
}

export interface ScopeInput {
  contact: ScopeContact;
  event: { name: string; properties: Record<string, unknown> };
  fallbacks: Record<string, string | number | boolean>;
  unsubscribeUrl: string;
}

const isMissing = (value: unknown) => value === undefined || value === null || value === '';

/** Own, enumerable entries only, so a property named `__proto__` stays a plain key. */
const ownEntries = (record: Record<string, unknown>) => Object.entries(record);

function withFallbacks(values: Record<string, unknown>, fallbacks: ScopeInput['fallbacks'], keys: Iterable<string>) {
  for (const key of keys) {
    const fallback = fallbacks[key];
    if (fallback !== undefined && isMissing(values[key])) values[key] = new MissingValue(String(fallback));
  }
  return values;
}

/**
 * The template variables of docs/workflows.md: `contact`, `event`, and flat at the top level every custom
 * property, contact field and event property (the event wins), plus `unsubscribe_url` (ours, never
 * overridden). A missing detail with a workflow fallback becomes a MissingValue.
 */
export function templateScope(input: ScopeInput): Record<string, unknown> {
  const contactFields = {
    email: input.contact.email,
    first_name: input.contact.first_name,
    last_name: input.contact.last_name,
    tags: input.contact.tags,
    custom_properties: input.contact.custom_properties,
  };
  const flat: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of ownEntries(input.contact.custom_properties)) flat[key] = value;
  for (const [key, value] of ownEntries(contactFields)) if (!isMissing(value)) flat[key] = value;
  for (const [key, value] of ownEntries(input.event.properties)) if (!isMissing(value) || !(key in flat)) flat[key] = value;
  withFallbacks(flat, input.fallbacks, Object.keys(input.fallbacks));
  flat.contact = withFallbacks({ ...contactFields }, input.fallbacks, ['first_name', 'last_name']);
  flat.event = { name: input.event.name, properties: input.event.properties };
  flat.unsubscribe_url = input.unsubscribeUrl;
  return flat;
}
