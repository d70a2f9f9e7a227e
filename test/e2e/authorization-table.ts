/** The methods every public route is tried with, documented or not. */
export const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

export type Credential = 'A' | 'B' | 'free' | 'revoked' | 'expired' | 'unknown' | 'none';
export const CREDENTIALS: Credential[] = ['A', 'B', 'free', 'revoked', 'expired', 'unknown', 'none'];

export interface RouteRow {
  /** Which gateway listener serves it: the REST API (`/api/v1` prefix) or the events listener. */
  listener: 'rest' | 'events';
  /** The path as the OpenAPI document names it. */
  path: string;
  /** Documented methods and the status the owner's key gets; every other method is 405. */
  success: Partial<Record<Method, number>>;
  /** What `{id}` stands for: one of account A's rows. */
  owns?: 'contact' | 'campaign';
}

/**
 * The authorization matrix's rows. The suite checks this table against the served OpenAPI
 * document (generated from the services' routes), so a route or method added without a row here
 * fails it.
 */
export const ROUTE_TABLE: RouteRow[] = [
  { listener: 'rest', path: '/contacts', success: { GET: 200, POST: 201 } },
  { listener: 'rest', path: '/contacts/{id}', success: { GET: 200, PATCH: 200, DELETE: 204 }, owns: 'contact' },
  { listener: 'rest', path: '/campaigns', success: { GET: 200 } },
  { listener: 'rest', path: '/campaigns/{id}', success: { GET: 200 }, owns: 'campaign' },
  { listener: 'events', path: '/v1/events', success: { POST: 202 } },
];

/**
 * The status each credential must get: no usable key -> 401, a plan without API access -> 403,
 * another account's row -> 404 (indistinguishable from a missing one), an undocumented method -> 405.
 */
export function expectedStatus(credential: Credential, row: RouteRow, method: Method): number {
  if (credential === 'none' || credential === 'revoked' || credential === 'expired' || credential === 'unknown') return 401;
  if (credential === 'free') return 403;
  const success = row.success[method];
  if (success === undefined) return 405;
  return credential === 'B' && row.owns ? 404 : success;
}

/** Fields no body may set; sent in every body with values the server must ignore. */
export function massAssignmentFields(otherAccountId: number): Record<string, unknown> {
  return {
    id: 987654321,
    bounced: true,
    created_at: '2000-01-01T00:00:00.000Z',
    updated_at: '2000-01-01T00:00:00.000Z',
    account: otherAccountId,
    account_id: otherAccountId,
    accountId: otherAccountId,
    emails_sent: 999,
    status: 'sent',
  };
}
