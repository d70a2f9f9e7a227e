/**
 * The account app's routes for the authorization matrix:
 * a user of account B, signed in with B's own session and CSRF token, aims every route at one of
 * account A's rows. Routes that name a row (`owns`) must answer B with a 404 page; lists must
 * answer 200 without any of A's rows. A's own user gets 200 from every owned GET (so the path is
 * right and the 404 means "not yours"). Checked by app-authorization-table.e2e.test.ts. The
 * contacts, import and dashboard routes are checked the same way, row by row, in
 * app-authorization-matrix.e2e.test.ts; a new section adds its routes to either.
 */
export type AppRow = 'workflow' | 'campaign' | 'contact';

export interface AppRouteRow {
  method: 'GET' | 'POST';
  /** `{workflow}`, `{campaign}`, `{contact}` stand for one of account A's rows; `{step}` for its workflow's email step. */
  path: string;
  owns?: AppRow;
}

export const APP_ROUTE_TABLE: AppRouteRow[] = [
  // Workflows
  { method: 'GET', path: '/app/workflows' },
  { method: 'GET', path: '/app/workflows/new' },
  { method: 'GET', path: '/app/workflows/{workflow}', owns: 'workflow' },
  { method: 'POST', path: '/app/workflows/{workflow}', owns: 'workflow' },
  { method: 'POST', path: '/app/workflows/{workflow}/enable', owns: 'workflow' },
  { method: 'POST', path: '/app/workflows/{workflow}/disable', owns: 'workflow' },
  { method: 'GET', path: '/app/workflows/{workflow}/export', owns: 'workflow' },
  { method: 'GET', path: '/app/workflows/{workflow}/steps/{step}?contact=someone@example.test', owns: 'workflow' },
  { method: 'GET', path: '/app/workflows/{workflow}/steps/{step}/frame?contact=someone@example.test', owns: 'workflow' },
  { method: 'POST', path: '/app/workflows/{workflow}/steps/{step}/test', owns: 'workflow' },
  // Activity: a filter naming A's rows shows B nothing of them.
  { method: 'GET', path: '/app/activity' },
  { method: 'GET', path: '/app/activity?workflow={workflow}' },
  { method: 'GET', path: '/app/activity?campaign={campaign}' },
  { method: 'GET', path: '/app/activity?contact={contact}' },
  // Campaigns
  { method: 'GET', path: '/app/campaigns' },
  { method: 'GET', path: '/app/campaigns/rows' },
  { method: 'GET', path: '/app/campaigns/new' },
  { method: 'GET', path: '/app/campaigns/{campaign}', owns: 'campaign' },
  { method: 'POST', path: '/app/campaigns/{campaign}', owns: 'campaign' },
  { method: 'GET', path: '/app/campaigns/{campaign}/progress', owns: 'campaign' },
  { method: 'GET', path: '/app/campaigns/{campaign}/edit', owns: 'campaign' },
  { method: 'GET', path: '/app/campaigns/{campaign}/preview?contact=someone@example.test', owns: 'campaign' },
  { method: 'GET', path: '/app/campaigns/{campaign}/preview/frame?contact=someone@example.test', owns: 'campaign' },
  { method: 'GET', path: '/app/campaigns/{campaign}/recipients', owns: 'campaign' },
  { method: 'POST', path: '/app/campaigns/{campaign}/test', owns: 'campaign' },
  ...['approve', 'return-to-draft', 'send', 'pause', 'resume', 'cancel', 'retry-failed'].map((action) => ({
    method: 'POST' as const,
    path: `/app/campaigns/{campaign}/${action}`,
    owns: 'campaign' as const,
  })),
  // Settings → Sending: always the signed-in account's own.
  { method: 'GET', path: '/app/settings/sending' },
];
