/** A request body as bytes, with the content type it is sent with. */
export interface RawBody {
  name: string;
  body: Buffer;
  contentType: string;
}

const json = (name: string, text: string): RawBody => ({ name, body: Buffer.from(text, 'utf8'), contentType: 'application/json' });

/**
 * Bodies that attack the parser rather than the schema. `valid` is one valid JSON body of the
 * endpoint (used for truncation and to carry the hostile parts); `limitBytes` its body limit.
 */
export function hostileBodies(valid: Record<string, unknown>, limitBytes: number): RawBody[] {
  const text = JSON.stringify(valid);
  const depth = 20_000;
  return [
    ...[1, 2, Math.floor(text.length / 2), text.length - 1].map((cut) => json(`truncated at ${cut}`, text.slice(0, cut))),
    json('deeply nested arrays', '['.repeat(depth) + ']'.repeat(depth)),
    json('deeply nested objects', '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
    json('deep nesting inside a valid body', JSON.stringify({ ...valid, custom_properties: { a: 1 } }).replace('{"a":1}', '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}')),
    json('huge array', JSON.stringify({ ...valid, tags: Array.from({ length: 100_000 }, (_, i) => `t${i % 10}`) })),
    json('huge object', JSON.stringify({ ...valid, custom_properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])) })),
    { name: 'invalid UTF-8', body: Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]), contentType: 'application/json' },
    { name: 'invalid UTF-8 inside a string', body: Buffer.from(text.replace(/"([^"]+)"\s*:\s*"/, '"$1":"\u0001').replace('\u0001', '\\u0000'), 'utf8'), contentType: 'application/json' },
    { name: 'raw NUL bytes', body: Buffer.concat([Buffer.from('{"a"'), Buffer.from([0]), Buffer.from(':1}')]), contentType: 'application/json' },
    json('NUL escapes everywhere', JSON.stringify(Object.fromEntries(Object.entries(valid).map(([k, v]) => [k, typeof v === 'string' ? `${v}\u0000` : v])))),
    json('lone surrogates', JSON.stringify({ ...valid, first_name: '\ud800', custom_properties: { '\udc00': '\ud800' } })),
    json('__proto__ keys', text.replace('{', '{"__proto__":{"polluted":"yes","isAdmin":true},"constructor":{"prototype":{"polluted":"yes"}},')),
    json('__proto__ nested under contact', `{"contact":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}`),
    json('JSON scalar', '42'),
    json('JSON string', '"hello"'),
    json('JSON null', 'null'),
    json('JSON array', '[1,2,3]'),
    json('empty body', ''),
    json('whitespace only', '   \n\t '),
    json('duplicate keys', text.replace('{', '{"email":"first@x.test",')),
    json('BOM then JSON', '\ufeff' + text),
    { name: 'oversize body', body: Buffer.alloc(limitBytes + 1024, 'a'), contentType: 'application/json' },
    { name: 'oversize valid JSON', body: Buffer.from(JSON.stringify({ ...valid, source: 'x'.repeat(limitBytes) })), contentType: 'application/json' },
    { name: 'JSON sent as text/plain', body: Buffer.from(text), contentType: 'text/plain' },
    { name: 'form encoded', body: Buffer.from('email=a%40b.test'), contentType: 'application/x-www-form-urlencoded' },
    { name: 'unknown charset', body: Buffer.from(text), contentType: 'application/json; charset=klingon' },
    { name: 'utf-16 charset', body: Buffer.from(text, 'utf16le'), contentType: 'application/json; charset=utf-16' },
  ];
}
