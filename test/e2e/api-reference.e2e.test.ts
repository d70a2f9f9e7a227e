import { readFileSync } from 'node:fs';
import path from 'node:path';
import { operationsOf, type Document } from './openapi-tools';
import { startProduct, type Product } from './stack-harness';

// docs/api.md is written by hand; the served OpenAPI document is built from the code. This keeps the
// two describing the same interface: a new operation or error status without its words fails here.
const API_MD = readFileSync(path.resolve(__dirname, '../../docs/api.md'), 'utf8');

/** `### GET /api/v1/contacts/:id` headings: the operations the reference describes. */
const documentedOperations = () => [...API_MD.matchAll(/^#{2,3} (GET|POST|PUT|PATCH|DELETE) (\/\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`).sort();

/** Every three-digit status named in a table row of one `## ` section. */
function statusesInSection(title: string): Set<string> {
  const start = API_MD.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/api.md has no section "${title}"`);
  const end = API_MD.indexOf('\n## ', start + 1);
  const rows = API_MD.slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| '));
  return new Set(rows.flatMap((row) => [...row.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => m[1]!)));
}

describe('docs/api.md against the served OpenAPI document', () => {
  let product: Product;
  let document: Document;

  beforeAll(async () => {
    product = await startProduct();
    const response = await fetch(`${product.gateway.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  }, 60_000);
  afterAll(() => product?.stop());

  it('has one section per served operation, and no section for an operation that is not served', () => {
    const served = operationsOf(document)
      .filter(({ method }) => method !== 'head')
      .map(({ path: route, method }) => {
        // Paths without their own servers entry are relative to {base_url}, which ends in /api/v1.
        const base = document.paths[route]?.servers ? '' : '/api/v1';
        return `${method.toUpperCase()} ${base}${route.replace(/\{(\w+)\}/g, ':$1')}`;
      })
      .sort();
    expect(documentedOperations()).toEqual(served);
  });

  it('explains every error status an operation can answer', () => {
    const explained = statusesInSection('Requests, answers and errors');
    const answered = new Set(
      operationsOf(document).flatMap(({ operation }) => Object.keys(operation.responses).filter((status) => /^[45]\d\d$/.test(status))),
    );
    expect([...answered].filter((status) => !explained.has(status)).sort()).toEqual([]);
  });

  it('keeps a Limits section naming the interface limits', () => {
    const limits = API_MD.slice(API_MD.indexOf('\n## Limits\n'));
    expect(limits).toMatch(/1000 per minute, 10 000 per hour/);
    expect(limits).toMatch(/300 per minute/);
    expect(limits).toMatch(/`per_page` \| 100/);
    expect(limits).toMatch(/50 entries/);
  });
});
