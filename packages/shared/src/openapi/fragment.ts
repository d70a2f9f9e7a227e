import { Router } from 'express';
import { z } from 'zod';

/** A JSON Schema (2020-12) object as zod emits it. */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, unknown>;
  /** OpenAPI links: which operation a client can call next with a value from this response. */
  links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
  content?: { 'application/json': { schema: JsonSchema } };
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse>;
}

/** What one service contributes to the gateway's document: its paths and the schemas they name. */
export interface OpenApiFragment {
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** OpenAPI 3.1 `webhooks`: requests the platform makes to the account's endpoints, by event type. */
  webhooks?: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export const FRAGMENT_PATH = '/openapi-fragment.json';

const COMPONENT_PREFIX = '#/components/schemas/';

export const schemaRef = (name: string): JsonSchema => ({ $ref: `${COMPONENT_PREFIX}${name}` });

/** Drops the keys that only make sense in a standalone schema document. */
function embedded(schema: unknown): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema as JsonSchema;
  return rest;
}

/**
 * Converts named zod schemas into `components.schemas`. Schemas that contain another named one
 * refer to it with a `$ref`, so each resource's field list appears once. `io: 'input'` describes
 * what a route accepts (before transforms), `'output'` what it sends.
 */
export function componentSchemas(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    // Refinements (e.g. "storable text") cannot be expressed; the documented type stays accurate.
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, embedded(schema)]));
}

/** One query parameter per property of a route's query schema (the one it parses with). */
export function queryParameters(schema: z.ZodObject): OpenApiParameter[] {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query' as const,
      required: json.required?.includes(name) ?? false,
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

export const idParameter = (description: string): OpenApiParameter => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'integer', minimum: 1 },
});

export const jsonResponse = (description: string, schema: string): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema: schemaRef(schema) } },
});

export const jsonRequest = (schema: string): NonNullable<OpenApiOperation['requestBody']> => ({
  required: true,
  content: { 'application/json': { schema: schemaRef(schema) } },
});

/** `GET /openapi-fragment.json` on the internal port: the gateway merges these into its document. */
export function fragmentRoute(fragment: OpenApiFragment): Router {
  const router = Router();
  router.get(FRAGMENT_PATH, (_req, res) => void res.json(fragment));
  return router;
}
