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

/** Never forwarded inward: credentials stay at the door; the identity header is ours alone to set. */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'authorization', 'cookie', IDENTITY_HEADER, 'expect', 'x-forwarded-for']);

/** Never copied outward: our rate-limit headers describe the gateway's limits, not the upstream's. */
const NOT_RETURNED = new Set([...HOP_BY_HOP, 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

/** Header names listed in `Connection` are hop-by-hop for this message too. */
function connectionTokens(value: string | string[] | undefined): Set<string> {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(joined.split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
}

export function requestHeadersForUpstream(
  incoming: IncomingHttpHeaders,
  extra: Record<string, string>,
): Record<string, string | string[]> {
  const listed = connectionTokens(incoming.connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || NOT_FORWARDED.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return { ...out, ...extra };
}

export function responseHeadersForClient(
  upstream: Record<string, string | string[] | undefined>,
): Array<[string, string | string[]]> {
  const listed = connectionTokens(upstream.connection);
  return Object.entries(upstream).filter(
    (entry): entry is [string, string | string[]] =>
      entry[1] !== undefined && !NOT_RETURNED.has(entry[0]) && !listed.has(entry[0]),
  );
}
