import Ajv from 'ajv';

/** The parts of the served document the tests read. */
export interface Document {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, unknown>; headers: Record<string, unknown> };
  [key: string]: unknown;
}

export type Schema = { properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: { 'application/json'?: { schema: { $ref?: string } } };
}

export interface Operation {
  operationId: string;
  responses: Record<string, Response | { $ref: string }>;
}

const DOC_ID = 'openapi.json';

/** Follows a local `#/...` pointer in the document. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), document);
}

/** Every `$ref` string anywhere in `value`. */
export function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else refsIn(child, found);
    }
  }
  return found;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function operationsOf(document: Document): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
}

/**
 * Response validation against the document with ajv. The document's schemas are JSON Schema 2020-12
 * (OpenAPI 3.1); the installed ajv is draft-07, which reads every keyword these schemas use the same way.
 */
export function responseChecker(document: Document) {
  const ajv = new Ajv({ allErrors: true });
  // Links are not schemas (a link's parameter named `id` would read as a draft-04 schema id).
  ajv.addSchema(JSON.parse(JSON.stringify(document, (key, value: unknown) => (key === 'links' ? undefined : value))) as object, DOC_ID);
  const byId = new Map<string, Operation>(operationsOf(document).map(({ operation }) => [operation.operationId, operation]));

  function responseOf(operationId: string, status: number): Response {
    const operation = byId.get(operationId);
    if (!operation) throw new Error(`no operation ${operationId} in the document`);
    const entry = operation.responses[String(status)];
    if (!entry) throw new Error(`${operationId} does not document status ${status}`);
    return ('$ref' in entry ? resolvePointer(document, entry.$ref) : entry) as Response;
  }

  /** Problems with `body` (and, when given, the documented headers) for `status` of `operationId`; empty when it conforms. */
  return function check(operationId: string, status: number, body: unknown, headers?: Headers): string[] {
    const response = responseOf(operationId, status);
    const problems: string[] = [];
    const ref = response.content?.['application/json']?.schema.$ref;
    if (ref === undefined) {
      if (body !== undefined) problems.push(`${operationId} ${status} documents no body but got one`);
    } else {
      const validate = ajv.compile({ $ref: `${DOC_ID}${ref}` });
      if (!validate(body)) problems.push(...(validate.errors ?? []).map((error) => `${operationId} ${status}: ${error.dataPath} ${error.message}`));
    }
    for (const name of headers ? Object.keys(response.headers ?? {}) : []) {
      // Only these are promised on every answer of their status; Idempotent-Replayed only on a replay.
      if ((name.startsWith('X-RateLimit-') || name === 'Retry-After') && !headers?.has(name)) {
        problems.push(`${operationId} ${status}: header ${name} missing`);
      }
    }
    return problems;
  };
}
