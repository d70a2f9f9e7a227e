import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { IDENTITY_HEADER, signIdentity } from '@mailer/shared';
import { TEST_SIGNING_SECRET } from '../service-test-env';

export interface RawResponse {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

/**
 * One signed request with exact bytes (node:http, not fetch: invalid UTF-8, any method and huge
 * headers must reach the server as given). A socket error is a result, not an exception.
 */
export function rawRequest(
  baseUrl: string,
  accountId: number,
  request: { method: string; path: string; body?: Buffer; contentType?: string; headers?: Record<string, string> },
): Promise<RawResponse | { status: 'socket-error'; error: string }> {
  // Not `new URL(path, base)`: it would resolve `.` and `..` segments, and the path must arrive as given.
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const outgoing = http.request(
      {
        hostname,
        port,
        path: request.path,
        method: request.method,
        headers: {
          // Signed for exactly these bytes, path and method, as the gateway signs what it forwards.
          [IDENTITY_HEADER]: signIdentity({ accountId, requestId: randomUUID() }, { method: request.method, path: request.path, body: request.body }, TEST_SIGNING_SECRET),
          ...(request.body ? { 'content-type': request.contentType ?? 'application/json', 'content-length': String(request.body.length) } : {}),
          ...request.headers,
        },
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), text, json });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (error) => resolve({ status: 'socket-error', error: error.message }));
    outgoing.end(request.body);
  });
}

/**
 * The fuzz suites' oracle for any answer: never a 5xx or a broken connection; a refusal is a 4xx
 * with a JSON body `{ error }` (or `{ errors: [...] }` for 422). Returns a problem, or undefined.
 */
export function answerProblem(response: RawResponse | { status: 'socket-error'; error: string }, allowed: number[]): string | undefined {
  if (response.status === 'socket-error') return `socket error: ${response.error}`;
  if (!allowed.includes(response.status)) return `status ${response.status}: ${response.text.slice(0, 200)}`;
  if (response.status === 204) return response.text === '' ? undefined : 'a 204 with a body';
  if (!/^application\/json/.test(response.contentType)) return `status ${response.status} without a JSON content type`;
  if (typeof response.json !== 'object' || response.json === null) return `status ${response.status} without a JSON object body`;
  if (response.status >= 400) {
    const body = response.json as { error?: unknown; errors?: unknown };
    const shaped =
      response.status === 422
        ? Array.isArray(body.errors) && body.errors.every((line) => typeof line === 'string')
        : typeof body.error === 'string';
    if (!shaped) return `status ${response.status} with body ${response.text.slice(0, 200)}`;
  }
  return undefined;
}

/** Own enumerable and non-enumerable names of Object.prototype, to detect pollution. */
export const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');
