import fc from 'fast-check';

/** The subset of JSON Schema that `z.toJSONSchema` emits for our request schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

/** Strings that are valid JSON text but hard on parsers, SQL, JSONB and logs. */
export const NASTY_STRINGS = [
  '', ' ', 'a\u0000b', '\u0000', '\ud800', 'x\udfffy', '🙂', '%', '_', '\\', "'; DROP TABLE x; --",
  '__proto__', 'constructor', 'prototype', '\u202e', '\r\nX-Injected: 1', '<script>alert(1)</script>', '{{ 7*7 }}',
];

const MAX_GENERATED = 16; // keeps payloads small: CI speed, not volume, is the point

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 64;
  const boundary = [min, max].filter((length) => length >= 0).map((length) => 'x'.repeat(length));
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, MAX_GENERATED)) }) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS).filter((text) => text.length >= min && text.length <= max) },
    { weight: 1, arbitrary: fc.constantFrom(...boundary) },
  );
}

function oneType(type: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case 'array':
      return fc.array(schemaArbitrary(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? MAX_GENERATED, 5),
      });
    case 'object':
      return objectArbitrary(schema, {});
    default:
      return fc.anything();
  }
}

function objectArbitrary(schema: JsonSchema, overrides: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  if (schema.properties) {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, property] of Object.entries(schema.properties)) model[key] = overrides[key] ?? schemaArbitrary(property);
    return fc.record(model, { requiredKeys: schema.required ?? [] });
  }
  const values = typeof schema.additionalProperties === 'object' ? schemaArbitrary(schema.additionalProperties) : fc.jsonValue();
  const keys = schema.propertyNames ? stringArbitrary(schema.propertyNames) : fc.string({ maxLength: MAX_GENERATED });
  return fc.dictionary(keys, values, { maxKeys: 5 });
}

/**
 * Values valid for `schema` (as far as JSON Schema can say: refinements such as "a well-formed
 * email" need an override by top-level property name). Strings include boundary lengths and
 * hostile but valid text (NUL, lone surrogates, SQL/template/header injection).
 */
export function schemaArbitrary(schema: JsonSchema, overrides: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => schemaArbitrary(option)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => oneType(type, schema)));
  if (schema.type === 'object' || schema.properties) return objectArbitrary(schema, overrides);
  return oneType(schema.type ?? 'any', schema);
}

/** Any JSON value of the wrong kind for a field: what a confused or hostile client sends. */
export const wrongValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(null, true, 0, -1, 1e308, '', [], {}, [[[]]], { __proto__: { polluted: true } }),
  );
