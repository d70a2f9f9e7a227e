import http from 'node:http';
import { IDENTITY_HEADER } from '@mailer/shared';
import { startHeaderRecorder } from './header-recorder';
import { startProduct, type Product } from './stack-harness';

/**
 * Issue #18: an identity header captured between the gateway and a service (a wiretap inside the
 * deployment) must not authorise any other request: another method, path, query or body, or the
 * same request once its few seconds are over.
 */
describe('captured identity headers cannot be replayed on other requests (real gateway and contacts)', () => {
  let product: Product;
  let tap: Awaited<ReturnType<typeof startHeaderRecorder>>;
  let key: string;

  beforeAll(async () => {
    tap = await startHeaderRecorder();
    // Every contacts request over the wire, through the tap.
    product = await startProduct({ gatewayEnv: { CONTACTS_SERVICE_URL: tap.url } });
    tap.forwardTo(product.contacts.url);
    ({ key } = await product.anAccountWithKey());
  }, 60_000);
  afterAll(async () => {
    await product?.stop();
    await tap?.close();
  });

  /** Makes `method path` through the gateway and returns what the tap saw of it. */
  async function capture(method: string, path: string, body?: unknown) {
    const response = await product.api(key, method, path, body);
    expect(response.status).toBeLessThan(300);
    const seen = tap.recorded.findLast((request) => request.method === method && request.path === `/api/v1${path}`);
    if (!seen) throw new Error(`the tap saw no ${method} ${path}`);
    return { response, header: String(seen.headers[IDENTITY_HEADER]) };
  }

  /** Sends straight to the contacts service (past the gateway) with a captured header; node:http, so a GET may carry a body. */
  const replay = (header: string, method: string, path: string, body?: string) =>
    new Promise<{ status: number; json: () => unknown }>((resolve, reject) => {
      const bytes = body === undefined ? undefined : Buffer.from(body);
      const outgoing = http.request(
        `${product.contacts.url}/api/v1${path}`,
        {
          method,
          headers: { [IDENTITY_HEADER]: header, ...(bytes ? { 'content-type': 'application/json', 'content-length': String(bytes.length) } : {}) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, json: () => JSON.parse(Buffer.concat(chunks).toString()) }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(bytes);
    });

  it('a GET header works for that GET only: not as a DELETE, not on another contact, not with another query', async () => {
    const created = await product.api(key, 'POST', '/contacts', { email: `replay-get-${Date.now()}@example.test` });
    const id = (created.body!.data as { id: number }).id;
    const { header, response: before } = await capture('GET', `/contacts/${id}`);
    // The same request within the window is what the gateway sent: the capture itself is valid.
    expect((await replay(header, 'GET', `/contacts/${id}`)).status).toBe(200);
    expect((await replay(header, 'DELETE', `/contacts/${id}`)).status).toBe(401);
    expect((await replay(header, 'PATCH', `/contacts/${id}`, JSON.stringify({ subscribed: false }))).status).toBe(401);
    expect((await replay(header, 'GET', `/contacts/${id + 1}`)).status).toBe(401);
    expect((await replay(header, 'GET', `/contacts/${id}?page=2`)).status).toBe(401);
    expect((await replay(header, 'GET', '/contacts')).status).toBe(401);
    // Nothing changed: the contact is still there, as it was.
    expect((await product.api(key, 'GET', `/contacts/${id}`)).body).toEqual(before.body);
  });

  it('a POST header does not carry another body, and nothing is written', async () => {
    const email = `replay-post-${Date.now()}@example.test`;
    const { header } = await capture('POST', '/contacts', { email });
    const forged = `forged-${Date.now()}@example.test`;
    const answer = await replay(header, 'POST', '/contacts', JSON.stringify({ email: forged }));
    expect(answer.status).toBe(401);
    expect(answer.json()).toEqual({ error: 'unauthorized' });
    // Nor may a captured bodyless header carry a body.
    const { header: listHeader } = await capture('GET', '/contacts');
    expect((await replay(listHeader, 'GET', '/contacts', JSON.stringify({ email: forged }))).status).toBe(401);
    const found = await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(forged)}`);
    expect(found.body!.data).toEqual([]);
  });

  it('the same request is refused once the signature is more than a few seconds old', async () => {
    const { header } = await capture('GET', '/contacts');
    await new Promise((resolve) => setTimeout(resolve, 6500));
    expect((await replay(header, 'GET', '/contacts')).status).toBe(401);
  }, 15_000);
});
