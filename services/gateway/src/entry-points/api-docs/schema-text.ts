import type { JsonSchema } from '@mailer/shared';
import { html, type SafeHtml } from '../html';

const REF_PREFIX = '#/components/schemas/';

export const schemaNameOf = (schema: JsonSchema): string | undefined =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : undefined;

const asSchema = (value: unknown): JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : {};

/** A schema's type, for a human: a link for a named schema, "array of …", "one of …", "… or null". */
export function typeText(schema: JsonSchema): SafeHtml {
  const name = schemaNameOf(schema);
  if (name) return html`<a href="#schema-${name}">${name}</a>`;
  if (Array.isArray(schema.enum)) return html`one of ${schema.enum.map(String).join(', ')}`;
  if (Array.isArray(schema.anyOf)) return joined(schema.anyOf.map((option) => typeText(asSchema(option))));
  if (Array.isArray(schema.type)) return html`${schema.type.map(String).join(' or ')}`;
  if (schema.type === 'array') return html`array of ${typeText(asSchema(schema.items))}`;
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  return html`${typeof schema.type === 'string' ? schema.type : 'any'}${format}`;
}

function joined(parts: SafeHtml[]): SafeHtml {
  return html`${parts.map((part, i) => (i === 0 ? part : html` or ${part}`))}`;
}

export interface FieldRow {
  name: string;
  type: SafeHtml;
  required: boolean;
  description: string;
}

/** The fields of an object schema (a named one is looked up), in declaration order. */
export function fieldsOf(schema: JsonSchema, schemas: Record<string, JsonSchema>): FieldRow[] {
  const name = schemaNameOf(schema);
  const target = name ? (schemas[name] ?? {}) : schema;
  const required = new Set(Array.isArray(target.required) ? target.required.map(String) : []);
  return Object.entries(asSchema(target.properties)).map(([field, value]) => {
    const property = asSchema(value);
    return {
      name: field,
      type: typeText(property),
      required: required.has(field),
      description: typeof property.description === 'string' ? property.description : '',
    };
  });
}

export function fieldTable(rows: FieldRow[], caption: string): SafeHtml {
  if (rows.length === 0) return html``;
  return html`<table><caption>${caption}</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
<tbody>${rows.map((row) => html`<tr><td><code>${row.name}</code></td><td>${row.type}</td><td>${row.required ? 'yes' : 'no'}</td><td>${row.description}</td></tr>`)}</tbody></table>`;
}
