import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_PATTERN, UNSTORABLE_TEXT_MESSAGE, validationFailed, zodMessages } from '@mailer/shared';
import { CAMPAIGN_STATUSES } from '../../domain/campaign';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type ListCampaignsQuery } from '../../domain/list-campaigns';

/** Past this a page number is no longer an exact integer; anything below it is served (past the end: empty). */
const MAX_PAGE = Number.MAX_SAFE_INTEGER;
const MAX_Q_LENGTH = 200;

// A repeated parameter arrives as an array: refuse it rather than guess which one was meant.
const single = () => z.string({ error: 'must be given once, as text' });

const positiveInteger = () =>
  single()
    .regex(/^[0-9]+$/, 'must be a positive integer')
    .transform(Number)
    .refine((value) => value >= 1, 'must be a positive integer');

export const listQuerySchema = z.object({
  status: single()
    .pipe(z.enum(CAMPAIGN_STATUSES, { error: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` }))
    // The document states the rule the pipe enforces (the input side alone would say "any string").
    .meta({ enum: [...CAMPAIGN_STATUSES] })
    .optional()
    .describe('Only campaigns in this status.'),
  q: single()
    .max(MAX_Q_LENGTH, `must be at most ${MAX_Q_LENGTH} characters`)
    // NUL reaching Postgres is an error (a 500), an unpaired surrogate a silently changed search.
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .meta({ pattern: STORABLE_TEXT_PATTERN })
    .optional()
    .describe('Search by name or subject (partial match).'),
  page: positiveInteger()
    .refine((value) => value <= MAX_PAGE, `must be at most ${MAX_PAGE}`)
    .meta({ type: 'integer', minimum: 1, maximum: MAX_PAGE, pattern: undefined })
    .optional()
    .describe('Page number, from 1 (default 1).'),
  // Above the maximum is served as the maximum, not refused (the interface's pagination rule).
  per_page: positiveInteger()
    .transform((value) => Math.min(value, MAX_PER_PAGE))
    .meta({ type: 'integer', minimum: 1, pattern: undefined })
    .optional()
    .describe('Results per page; maximum 100 (larger is served as 100); default 25.'),
});

/** Parses `GET /campaigns` query parameters; every problem becomes one line of a 422. */
export function parseListCampaignsQuery(query: unknown): ListCampaignsQuery {
  const result = listQuerySchema.safeParse(query ?? {});
  if (!result.success) throw validationFailed(zodMessages(result.error));
  const { status, q, page, per_page: perPage } = result.data;
  return {
    status,
    q: q === '' ? undefined : q,
    page: page ?? 1,
    perPage: perPage ?? DEFAULT_PER_PAGE,
  };
}
