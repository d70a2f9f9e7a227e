import type { NameRanges } from './sorted-names';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** a-z, 0-9, '-' and '.': the bytes of a name the normalising function gives back as it is. */
const isPlain = (byte: number) =>
  (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2e;

function skipSpace(json: Buffer, from: number): number {
  let at = from;
  while (isSpace(json[at])) at++;
  return at;
}

const malformed = (at: number) => new Error(`not a JSON array of strings (byte ${at})`);

/**
 * The names of a file holding a JSON array of strings, read from its bytes. A name of plain
 * lower-case ASCII stays a range of `json`; any other (Unicode, upper case, an escape) is decoded,
 * passed through `normalise` and dropped when that gives ''. `JSON.parse` would first make every
 * name a heap string: 120,000 of them grow the young generation for good
 * (docs/adr/0037-email-address-rule-and-domain-verdict.md).
 */
export function namesOfJsonArray(json: Buffer, normalise: (name: string) => string): NameRanges {
  // Every string is two unescaped quotes: half the quotes bound the names.
  let quotes = 0;
  for (let at = json.indexOf(QUOTE); at !== -1; at = json.indexOf(QUOTE, at + 1)) quotes++;
  const starts = new Uint32Array(Math.ceil(quotes / 2));
  const ends = new Uint32Array(starts.length);
  let count = 0;
  const converted: string[] = [];

  let at = skipSpace(json, 0);
  if (json[at] !== OPEN_BRACKET) throw malformed(at);
  at = skipSpace(json, at + 1);
  if (json[at] !== CLOSE_BRACKET) {
    for (;;) {
      if (json[at] !== QUOTE) throw malformed(at);
      let end = at + 1;
      let plain = true;
      for (; json[end] !== QUOTE; end++) {
        const byte = json[end];
        if (byte === undefined) throw malformed(end);
        if (!isPlain(byte)) plain = false;
        if (byte === BACKSLASH) end++;
      }
      if (plain && end > at + 1) {
        starts[count] = at + 1;
        ends[count++] = end;
      } else {
        const name = normalise(JSON.parse(json.toString('utf8', at, end + 1)) as string);
        if (name !== '') converted.push(name);
      }
      at = skipSpace(json, end + 1);
      if (json[at] === CLOSE_BRACKET) break;
      if (json[at] !== COMMA) throw malformed(at);
      at = skipSpace(json, at + 1);
    }
  }
  if (skipSpace(json, at + 1) !== json.length) throw malformed(at + 1);

  // The converted names go after the file's bytes, as ranges of the same buffer.
  const nonAscii = converted.find((name) => Buffer.byteLength(name) !== name.length);
  if (nonAscii !== undefined) throw new Error(`names must normalise to ASCII, not ${JSON.stringify(nonAscii)}`);
  let end = json.length;
  for (const name of converted) {
    starts[count] = end;
    ends[count++] = end += name.length;
  }
  return {
    source: Buffer.concat([json, Buffer.from(converted.join(''), 'latin1')]),
    starts: starts.subarray(0, count),
    ends: ends.subarray(0, count),
  };
}
