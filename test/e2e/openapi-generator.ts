import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { resolvePointer, type Document } from './openapi-tools';

/** The JSON Schema keywords the served document uses for inputs. */
export interface InputSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  anyOf?: InputSchema[];
  properties?: Record<string, InputSchema>;
  required?: string[];
  additionalProperties?: InputSchema | boolean;
  propertyNames?: InputSchema;
  items?: InputSchema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  maxItems?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
}

/** A mutation that makes a valid value break exactly one documented rule. */
export interface Violation {
  rule: string;
  value: unknown;
}

// Plain BMP text: JSON Schema counts code points and JavaScript UTF-16 units, which agree here.
const TEXT = fc.string({ unit: fc.constantFrom(...'abcxyzABC019 -_.é'), maxLength: 12 });
const SMALL_JSON = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));

/**
 * Request values drawn from a document's schemas: everything generated is valid by the document
 * (the test asserts the service accepts it), and `violations` breaks one rule at a time (the test
 * asserts the documented 4xx). An address (`format: email`) is at a domain the test DNS server
 * knows, unique per value so creates never collide.
 */
export function requestGenerator(document: Document, emailDomain = 'example.test') {
  const resolve = (schema: InputSchema): InputSchema =>
    schema.$ref ? resolve(resolvePointer(document, schema.$ref) as InputSchema) : schema;

  function text(schema: InputSchema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 64;
    const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
    const fits = (value: string) => value.length >= min && value.length <= max && (!pattern || pattern.test(value));
    const boundary = ['x'.repeat(Math.max(min, 1)), 'x'.repeat(max)].filter(fits);
    return fc.oneof({ weight: 5, arbitrary: TEXT.filter(fits) }, { weight: 1, arbitrary: fc.constantFrom('x', ...boundary).filter(fits) });
  }

  function ofType(type: string, schema: InputSchema): fc.Arbitrary<unknown> {
    switch (type) {
      case 'string':
        if (schema.format === 'email') return fc.constant(null).map(() => `c.${randomBytes(5).toString('hex')}@${emailDomain}`);
        return text(schema);
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, 1000) });
      case 'number':
        return fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }));
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(valid(schema.items ?? {}), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
      case 'object':
        return object(schema);
      default:
        return SMALL_JSON;
    }
  }

  function object(schema: InputSchema): fc.Arbitrary<Record<string, unknown>> {
    if (schema.properties) {
      const model = Object.fromEntries(Object.entries(schema.properties).map(([key, property]) => [key, valid(property)]));
      return fc.record(model, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
    }
    const values = typeof schema.additionalProperties === 'object' ? valid(schema.additionalProperties) : SMALL_JSON;
    const keys = schema.propertyNames ? text(schema.propertyNames) : TEXT;
    // Built as entries: a generated key such as "__proto__" stays an ordinary property.
    return fc
      .uniqueArray(fc.tuple(keys, values), { maxLength: Math.min(schema.maxProperties ?? 4, 4), selector: ([key]) => key })
      .map((entries) => Object.fromEntries(entries));
  }

  function valid(raw: InputSchema): fc.Arbitrary<unknown> {
    const schema = resolve(raw);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => valid(option)));
    if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => ofType(type, schema)));
    if (schema.type === 'object' || schema.properties) return object(schema);
    return ofType(schema.type ?? 'any', schema);
  }

  /** Values of the wrong kind for `schema` (no option of an anyOf takes them). */
  function wrongKind(schema: InputSchema): unknown[] {
    if (kinds(schema).includes('any')) return [];
    const accepted = (value: unknown) => kinds(schema).includes(kindOf(value));
    return [12345, 'text', true, [1], { nested: 1 }].filter((value) => !accepted(value));
  }

  function kinds(raw: InputSchema): string[] {
    const schema = resolve(raw);
    if (schema.anyOf) return schema.anyOf.flatMap(kinds);
    if (schema.enum) return ['enum'];
    if (Array.isArray(schema.type)) return schema.type.map((type) => (type === 'integer' ? 'number' : type));
    if (schema.type) return [schema.type === 'integer' ? 'number' : schema.type];
    return schema.properties ? ['object'] : ['any'];
  }

  /** Every single-rule violation of one property of an object schema, applied to `base`. */
  function violations(rawObject: InputSchema, base: Record<string, unknown>): Violation[] {
    const schema = resolve(rawObject);
    const found: Violation[] = [];
    const withField = (key: string, value: unknown) => ({ ...base, [key]: value });
    for (const key of schema.required ?? []) {
      const { [key]: _dropped, ...rest } = base;
      found.push({ rule: `${key} is required`, value: rest });
    }
    for (const [key, rawProperty] of Object.entries(schema.properties ?? {})) {
      const property = resolve(rawProperty);
      const options = property.anyOf ? property.anyOf.map(resolve) : [property];
      for (const wrong of wrongKind(property).slice(0, 2)) found.push({ rule: `${key} of the wrong type`, value: withField(key, wrong) });
      for (const option of options) {
        if (option.format === 'email') found.push({ rule: `${key} not an address`, value: withField(key, 'not-an-address') });
        if (option.type === 'string' && option.maxLength !== undefined)
          found.push({ rule: `${key} longer than ${option.maxLength}`, value: withField(key, 'x'.repeat(option.maxLength + 1)) });
        if (option.type === 'string' && option.pattern !== undefined)
          found.push({ rule: `${key} breaking its pattern (NUL)`, value: withField(key, 'a\u0000b') });
        if (option.type === 'string' && (option.minLength ?? 0) > 0 && option.format === undefined)
          found.push({ rule: `${key} empty`, value: withField(key, '') });
        if (option.type === 'array' && option.maxItems !== undefined)
          found.push({ rule: `${key} with more than ${option.maxItems} items`, value: withField(key, Array.from({ length: option.maxItems + 1 }, (_, i) => `t${i}`)) });
        if (option.type === 'array' && option.items)
          for (const wrong of wrongKind(option.items).slice(0, 1)) found.push({ rule: `${key} with an item of the wrong type`, value: withField(key, [wrong]) });
        if (option.type === 'object' && option.maxProperties !== undefined)
          found.push({
            rule: `${key} with more than ${option.maxProperties} entries`,
            value: withField(key, Object.fromEntries(Array.from({ length: option.maxProperties + 1 }, (_, i) => [`k${i}`, i]))),
          });
        if (option.type === 'object' && typeof option.additionalProperties === 'object')
          for (const wrong of wrongKind(option.additionalProperties).slice(0, 1))
            found.push({ rule: `${key} with a value of the wrong type`, value: withField(key, { k: wrong }) });
      }
    }
    return found;
  }

  /** Single-rule violations of a query parameter's schema (values as they travel: text). */
  function parameterViolations(rawSchema: InputSchema): string[] {
    const schema = resolve(rawSchema);
    const found: string[] = [];
    if (schema.type === 'integer') found.push('abc', '1.5', String((schema.minimum ?? 1) - 1));
    if (schema.enum) found.push('maybe');
    if (schema.type === 'string' && schema.maxLength !== undefined) found.push('x'.repeat(schema.maxLength + 1));
    if (schema.type === 'string' && schema.pattern !== undefined) found.push('a\u0000b');
    return found;
  }

  return { valid, violations, parameterViolations, resolve };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
