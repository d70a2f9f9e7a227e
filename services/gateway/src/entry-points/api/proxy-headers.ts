import type { IncomingHttpHeaders } from 'node:http';
import { IDENTITY_HEADER } from '@mailer/shared';

/** RFC 9110 §7.6.1 hop-by-hop headers, plus the ones only this hop may set. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Never forwarded inward: credentials stay at the door; the identity header is ours alone to set;
 * the body goes on decoded and whole, so its encoding and length are the proxy's to state.
 */
const NOT_FORWARDED = new Set([
  ...HOP_BY_HOP,
  'host',
  'authorization',
  'cookie',
  IDENTITY_HEADER,
  'expect',
  'x-forwarded-for',
  'content-encoding',
  'content-length',
]);

/** Never copied outward: our rate-limit headers describe the gateway's limits, not the upstream's. */
const NOT_RETURNED = new Set([...HOP_BY_HOP, 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

const NONE: ReadonlySet<string> = new Set();

/**
 * Header names listed in `Connection` are hop-by-hop for this message too. Most messages carry
 * none or `keep-alive` (already dropped): those skip the parsing, which runs on every request.
 */
function connectionTokens(value: string | string[] | undefined): ReadonlySet<string> {
  if (value === undefined || value === 'keep-alive' || value === 'close') return NONE;
  const joined = Array.isArray(value) ? value.join(',') : value;
  return new Set(joined.split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
}

export function requestHeadersForUpstream(
  incoming: IncomingHttpHeaders,
  extra: Record<string, string>,
): Record<string, string | string[]> {
  const listed = connectionTokens(incoming.connection);
  const out: Record<string, string | string[]> = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || NOT_FORWARDED.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  // The extras win over anything the caller sent under the same name.
  for (const name in extra) out[name] = extra[name]!;
  return out;
}

export function responseHeadersForClient(
  upstream: Record<string, string | string[] | undefined>,
): Array<[string, string | string[]]> {
  const listed = connectionTokens(upstream.connection);
  const out: Array<[string, string | string[]]> = [];
  for (const name in upstream) {
    const value = upstream[name];
    if (value !== undefined && !NOT_RETURNED.has(name) && !listed.has(name)) out.push([name, value]);
  }
  return out;
}
