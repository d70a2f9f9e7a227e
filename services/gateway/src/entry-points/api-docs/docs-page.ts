import type { JsonSchema, OpenApiOperation, OpenApiParameter } from '@mailer/shared';
import { html, type SafeHtml } from '../html';
import type { OpenApiDocument } from './openapi-document';
import { fieldsOf, fieldTable, schemaNameOf, typeText } from './schema-text';

type Response = { description?: string; $ref?: string; content?: { 'application/json'?: { schema: JsonSchema } } };

function parameters(list: OpenApiParameter[] | undefined): SafeHtml {
  if (!list || list.length === 0) return html``;
  return html`<table><caption>Parameters</caption>
<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
<tbody>${list.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${typeText(p.schema)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${p.description ?? ''}</td></tr>`)}</tbody></table>`;
}

/** The body's fields; a body that may also come wrapped (`{ contact: {...} }`) shows its flat form and says so. */
function requestBody(operation: OpenApiOperation, document: OpenApiDocument): SafeHtml {
  const schema = operation.requestBody?.content['application/json'].schema;
  if (!schema) return html``;
  const name = schemaNameOf(schema);
  const resolved = name ? (document.components.schemas[name] ?? {}) : schema;
  const options = Array.isArray(resolved.anyOf) ? (resolved.anyOf as JsonSchema[]) : [resolved];
  const flat = options[0] ?? {};
  const note = options.length > 1 ? 'Request body (JSON; the same fields may also be nested under one key, see the schema)' : 'Request body (JSON)';
  return fieldTable(fieldsOf(flat, document.components.schemas), note);
}

function responses(operation: OpenApiOperation, document: OpenApiDocument): SafeHtml {
  const rows = Object.entries(operation.responses as Record<string, Response>).map(([status, value]) => {
    const shared = value.$ref ? document.components.responses[value.$ref.split('/').pop() ?? ''] : undefined;
    const response = (shared ?? value) as Response;
    const schema = response.content?.['application/json']?.schema;
    return html`<tr><td>${status}</td><td>${response.description ?? ''}</td><td>${schema ? typeText(schema) : 'no body'}</td></tr>`;
  });
  return html`<table><caption>Responses</caption>
<thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Body</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operations(document: OpenApiDocument): SafeHtml[] {
  return Object.entries(document.paths).flatMap(([path, item]) => {
    const base = item.servers ? '{events_url}' : '{base_url}';
    return Object.entries(item)
      .filter(([method]) => method !== 'servers')
      .map(([method, value]) => {
        const operation = value as OpenApiOperation;
        return html`<section class="card" id="op-${operation.operationId}">
<h2><code>${method.toUpperCase()} ${base}${path}</code></h2>
<p>${operation.summary} <span class="hint">(operation ${operation.operationId})</span></p>
${parameters(operation.parameters)}${requestBody(operation, document)}${responses(operation, document)}
</section>`;
      });
  });
}

function schemaSections(document: OpenApiDocument): SafeHtml[] {
  return Object.entries(document.components.schemas).map(
    ([name, schema]) => html`<section class="card" id="schema-${name}"><h2>${name}</h2>
${fieldTable(fieldsOf(schema, document.components.schemas), `${name} fields`)}${Array.isArray(schema.anyOf) ? html`<p>Any of: ${typeText(schema)}</p>` : ''}</section>`,
  );
}

/** The reference page: server-rendered, no script, the account app's stylesheet. */
export function docsPage(document: OpenApiDocument): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${document.info.title} reference</title><link rel="stylesheet" href="/app/assets/style.css"></head>
<body><main>
<h1>${document.info.title} ${document.info.version}</h1>
<p>${document.info.description}</p>
<p>REST paths are relative to <code>{base_url}</code> (ending in <code>/api/v1</code>); the event endpoint to <code>{events_url}</code>.
Machine-readable: <a href="/api/v1/openapi.json">OpenAPI 3.1 document</a>.</p>
<nav aria-label="Operations"><ul>${Object.values(document.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => method !== 'servers')
      .map(([, value]) => {
        const id = (value as OpenApiOperation).operationId;
        return html`<li><a href="#op-${id}">${id}</a></li>`;
      }),
  )}</ul></nav>
${operations(document)}
<h2>Schemas</h2>
${schemaSections(document)}
</main></body></html>`.toString();
}
