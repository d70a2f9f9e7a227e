import type { Contact, ContactInput } from '../../../data-access/contacts.client';

/** What the contact form holds, as text (what the person typed, re-shown after a refusal). */
export interface ContactForm {
  email: string;
  first_name: string;
  last_name: string;
  subscribed: boolean;
  /** Comma separated, as typed. */
  tags: string;
  properties: Array<{ key: string; value: string }>;
}

/** Field name → the service's reasons, for errors shown next to their field. */
export type FieldErrors = Partial<Record<'email' | 'first_name' | 'last_name' | 'subscribed' | 'tags' | 'custom_properties' | 'form', string[]>>;

const MAX_PROPERTY_ROWS = 50;

const text = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
};

const list = (body: Record<string, unknown>, name: string): string[] => {
  const value = body[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
};

export const emptyForm = (): ContactForm => ({ email: '', first_name: '', last_name: '', subscribed: true, tags: '', properties: [{ key: '', value: '' }] });

export function formOf(contact: Contact): ContactForm {
  return {
    email: contact.email,
    first_name: contact.first_name ?? '',
    last_name: contact.last_name ?? '',
    subscribed: contact.subscribed,
    tags: contact.tags.join(', '),
    properties: [...Object.entries(contact.custom_properties).map(([key, value]) => ({ key, value: String(value) })), { key: '', value: '' }],
  };
}

/**
 * The posted form (urlencoded, repeated `property_key`/`property_value` fields, one pair per row).
 * A row ticked for removal is dropped here; "add a row" appends an empty one.
 */
export function readForm(body: Record<string, unknown>): ContactForm {
  const keys = list(body, 'property_key');
  const values = list(body, 'property_value');
  const removed = new Set(list(body, 'property_remove').map(Number));
  const properties = keys
    .map((key, index) => ({ key, value: values[index] ?? '', index }))
    .filter((row) => !removed.has(row.index))
    .map(({ key, value }) => ({ key, value }))
    .slice(0, MAX_PROPERTY_ROWS);
  if (text(body, '_action') === 'add-property' && properties.length < MAX_PROPERTY_ROWS) properties.push({ key: '', value: '' });
  if (properties.length === 0) properties.push({ key: '', value: '' });
  return {
    email: text(body, 'email'),
    first_name: text(body, 'first_name'),
    last_name: text(body, 'last_name'),
    subscribed: text(body, 'subscribed') === 'true',
    tags: text(body, 'tags'),
    properties,
  };
}

export const tagsOf = (form: ContactForm): string[] =>
  [...new Map(form.tags.split(',').map((tag) => tag.trim()).filter(Boolean).map((tag) => [tag.toLowerCase(), tag])).values()];

const propertiesOf = (form: ContactForm): Map<string, string> =>
  new Map(form.properties.filter((row) => row.key.trim() !== '').map((row) => [row.key.trim(), row.value]));

/** A new contact: blank names are left out, properties are text. */
export function newContactInput(form: ContactForm): ContactInput {
  return {
    email: form.email,
    ...(form.first_name.trim() ? { first_name: form.first_name.trim() } : {}),
    ...(form.last_name.trim() ? { last_name: form.last_name.trim() } : {}),
    subscribed: form.subscribed,
    tags: tagsOf(form),
    custom_properties: Object.fromEntries(propertiesOf(form)),
  };
}

/**
 * The changes an edit makes, as the service's PATCH takes them: only what differs (an unchanged
 * `subscribed` is not sent, so saving a name never records consent), properties removed as null,
 * an unchanged value keeps its type. Tags taken off are returned apart: PATCH only adds tags.
 */
export function contactChanges(before: Contact, form: ContactForm): { input: ContactInput; removedTags: string[] } {
  const input: ContactInput = {};
  if (form.email.trim() !== before.email) input.email = form.email;
  const first = form.first_name.trim() || null;
  const last = form.last_name.trim() || null;
  if (first !== before.first_name) input.first_name = first;
  if (last !== before.last_name) input.last_name = last;
  if (form.subscribed !== before.subscribed) input.subscribed = form.subscribed;
  const wanted = tagsOf(form);
  const lower = new Set(wanted.map((tag) => tag.toLowerCase()));
  const had = new Set(before.tags.map((tag) => tag.toLowerCase()));
  const added = wanted.filter((tag) => !had.has(tag.toLowerCase()));
  if (added.length > 0) input.tags = added;
  const properties = propertiesOf(form);
  const changes: Record<string, string | null> = {};
  for (const key of Object.keys(before.custom_properties)) if (!properties.has(key)) changes[key] = null;
  for (const [key, value] of properties) if (!(key in before.custom_properties) || String(before.custom_properties[key]) !== value) changes[key] = value;
  if (Object.keys(changes).length > 0) input.custom_properties = changes;
  return { input, removedTags: before.tags.filter((tag) => !lower.has(tag.toLowerCase())) };
}

const FIELDS = ['email', 'first_name', 'last_name', 'subscribed', 'tags', 'custom_properties'] as const;

/** The service's 422 reasons ("first_name is too long …", "tags.3 must not be blank") put by their field. */
export function fieldErrors(messages: string[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const message of messages) {
    const field = FIELDS.find((name) => message === name || message.startsWith(`${name} `) || message.startsWith(`${name}.`)) ?? 'form';
    (errors[field] ??= []).push(message);
  }
  return errors;
}
