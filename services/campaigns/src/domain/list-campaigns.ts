import type { Queryable } from '../data-access/queryable';
import { findCampaignPage } from '../data-access/campaigns.repository';
import type { Campaign, CampaignStatus } from './campaign';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export interface ListCampaignsQuery {
  status?: CampaignStatus | undefined;
  q?: string | undefined;
  page: number;
  /** Already capped at MAX_PER_PAGE. */
  perPage: number;
}

export interface PageMeta {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

/** One page of an account's campaigns, newest first, with the true totals (also past the end). */
export async function listCampaigns(
  db: Queryable,
  accountId: number,
  query: ListCampaignsQuery,
): Promise<{ campaigns: Campaign[]; meta: PageMeta }> {
  const { campaigns, totalCount } = await findCampaignPage(
    db,
    { accountId, status: query.status, q: query.q },
    query.perPage,
    // A huge page's offset may leave the exact-integer range; any offset this large is past the end.
    Math.min((query.page - 1) * query.perPage, Number.MAX_SAFE_INTEGER),
  );
  return {
    campaigns,
    meta: {
      current_page: query.page,
      total_pages: Math.ceil(totalCount / query.perPage),
      total_count: totalCount,
      per_page: query.perPage,
    },
  };
}
