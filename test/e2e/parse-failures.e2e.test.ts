import { gzipSync } from 'node:zlib';
import { rawRequest } from '@mailer/testing';
import { startProduct, type Product } from './stack-harness';

/** Issue #18: every body the parsers cannot read is a 4xx JSON answer with the usual headers, never a 500. */
describe('parse failures through the real gateway and services', () => {
  let product: Product;
  let key: string;
  let accountId: number;

  beforeAll(async () => {
    product = await startProduct();
    ({ key, accountId } = await product.anAccountWithKey());
  }, 60_000);
  afterAll(() => product?.stop());

  const post = (body: Buffer, headers: Record<string, string>) =>
    fetch(`${product.gateway.url}/api/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body,
    });

  const cases: Array<[string, () => Buffer, Record<string, string>, number]> = [
    ['a broken gzip stream', () => Buffer.concat([gzipSync('{"email":"a@example.test"}').subarray(0, 12), Buffer.from('garbage')]), { 'content-encoding': 'gzip' }, 400],
    ['gzip that inflates past the body limit', () => gzipSync(Buffer.alloc(3 * 1024 * 1024, 0x20)), { 'content-encoding': 'gzip' }, 413],
    ['an unknown content encoding', () => Buffer.from('{}'), { 'content-encoding': 'klingon' }, 415],
    ['malformed JSON', () => Buffer.from('{"email":'), {}, 400],
    ['a raw NUL byte in JSON', () => Buffer.from('{"email":"a\u0000@example.test"}'), {}, 400],
    ['a body over the limit', () => Buffer.alloc(2 * 1024 * 1024, 0x20), {}, 413],
  ];

  it.each(cases)('%s: a 4xx JSON answer with X-RateLimit-* headers', async (_name, body, headers, status) => {
    const response = await post(body(), headers);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const json = (await response.json()) as { error?: string; errors?: string[] };
    expect(typeof json.error === 'string' || Array.isArray(json.errors)).toBe(true);
  });

  it('a valid gzip body is accepted (decoded at the door, signed as decoded)', async () => {
    const response = await post(gzipSync(JSON.stringify({ email: `gz-${Date.now()}@example.test` })), { 'content-encoding': 'gzip' });
    expect(response.status).toBe(201);
  });

  it('a broken gzip stream sent straight to the contacts service (signed) is a 400, not a 500', async () => {
    const body = Buffer.concat([gzipSync('{"email":"a@example.test"}').subarray(0, 12), Buffer.from('garbage')]);
    const response = await rawRequest(product.contacts.url, accountId, { method: 'POST', path: '/api/v1/contacts', body, headers: { 'content-encoding': 'gzip' } });
    expect(response.status).toBe(400);
  });
});
