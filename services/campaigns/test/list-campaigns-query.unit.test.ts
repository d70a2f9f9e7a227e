import { AppError } from '@mailer/shared';
import { parseListCampaignsQuery } from '../src/entry-points/api/list-campaigns.query';

const errorsOf = (query: Record<string, unknown>) => {
  try {
    parseListCampaignsQuery(query);
  } catch (error) {
    if (error instanceof AppError) return error.messages;
  }
  throw new Error('expected a validation error');
};

describe('GET /campaigns query parsing', () => {
  it('defaults to page 1 of 25 without filters', () => {
    expect(parseListCampaignsQuery({})).toEqual({ status: undefined, q: undefined, page: 1, perPage: 25 });
  });

  it('caps per_page at 100, keeps leading zeros as decimal, ignores unknown parameters', () => {
    expect(parseListCampaignsQuery({ per_page: '250', page: '007', sort: 'name' })).toEqual({ status: undefined, q: undefined, page: 7, perPage: 100 });
  });

  it('lists every problem, one line per parameter', () => {
    expect(errorsOf({ page: '0', per_page: '2.5', status: 'done', q: ['a', 'b'] })).toEqual([
      'status must be one of draft, scheduled, sent, failed, approved, sending',
      'q must be given once, as text',
      'page must be a positive integer',
      'per_page must be a positive integer',
    ]);
  });

  it('accepts any exact-integer page and refuses one beyond 2^53 - 1', () => {
    expect(parseListCampaignsQuery({ page: '9007199254740991' }).page).toBe(Number.MAX_SAFE_INTEGER);
    expect(errorsOf({ page: '9007199254740993' })).toEqual(['page must be at most 9007199254740991']);
  });
});
